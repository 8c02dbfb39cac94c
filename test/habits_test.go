package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
)

// TestProfilesOrphansAndRmi, against a real engine, as Compose does: a
// service of a compose profile that is off now keeps its container and is
// no orphan; a service gone from the compose file is one, named by up and
// removed by up --remove-orphans, which says so one line each; down --rmi
// local removes the image devenv built and keeps the pulled base.
func TestProfilesOrphansAndRmi(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	base := "nvcr.io/" + plainBase
	side := "    image: " + base + "\n    command: [sleep, infinity]\n"
	compose := "services:\n  built:\n    build: {context: ., dockerfile: app.Dockerfile}\n  debug:\n" + side + "    profiles: [debug]\n"
	dir, name := w.project(t, "compose: [compose.yaml]\nservices:\n  shell:\n    profile: image\n"+side,
		map[string]string{"compose.yaml": compose + "  old:\n" + side,
			"app.Dockerfile": "FROM " + base + "\nRUN echo built > /built\nCMD [\"sleep\", \"infinity\"]\n"})
	w.must(t, dir, "lock")
	w.must(t, dir, "--profile", "debug", "up", "--wait")

	writeFile(t, dir, "compose.yaml", compose)
	w.must(t, dir, "lock")
	r := w.must(t, dir, "up")
	if strings.Contains(r.Stderr, name+"-debug") || !strings.Contains(r.Stderr, "orphan containers ("+name+"-old)") {
		t.Errorf("plain up after --profile debug up: want %s-old named as the only orphan:\n%s", name, r.Stderr)
	}
	r = w.must(t, dir, "up", "--remove-orphans")
	if !strings.Contains(r.Stdout, "removed orphan container "+name+"-old (service old)\n") || strings.Contains(r.Stdout, name+"-debug") {
		t.Errorf("up --remove-orphans:\n%s", r.Stdout)
	}
	got := projectContainers(t, name)
	if !slices.Contains(got, name+"-debug") || slices.Contains(got, name+"-old") {
		t.Errorf("containers after up --remove-orphans: %v, want %s-debug kept and %s-old gone", got, name, name)
	}

	cli := standin.Docker(t)
	built := func() int {
		imgs, err := cli.ImageList(t.Context(), image.ListOptions{Filters: filters.NewArgs(filters.Arg("label", labels.ProjectFilter(name)))})
		if err != nil {
			t.Fatal(err)
		}
		return len(imgs)
	}
	if built() == 0 {
		t.Fatal("no image labelled for the project after up: the built service's image should be")
	}
	w.must(t, dir, "down", "--rmi", "local")
	if n := built(); n != 0 {
		t.Errorf("down --rmi local left %d image(s) devenv built", n)
	}
	if _, err := cli.ImageInspect(t.Context(), w.registry+"/"+plainBase+"@"+w.digests[plainBase]); err != nil {
		t.Errorf("down --rmi local removed the pulled base (%v)", err)
	}
	if r := w.run(t, dir, "down", "--rmi", "all"); r.Code != 2 || !strings.Contains(r.Stderr, "--rmi all: devenv removes only the images it built") {
		t.Errorf("down --rmi all: exit %d: %s", r.Code, r.Stderr)
	}
}
