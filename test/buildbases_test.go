package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/image"
)

// TestComposeBuildFromLockedBase: a compose service builds from a
// Dockerfile whose FROM names an nvcr.io image through ARGs (the tag from
// build.args; the default tag exists nowhere), in two stages. Only the
// stand-in registry has the image, reached through mirrors:. lock pins it
// in build_bases by the registry's digest; up pulls it by that digest
// through the mirror and builds the Dockerfile as written, leaving no
// nvcr.io tag on the engine; a second up builds nothing. A changed
// build arg makes the lock stale (up --frozen exits 5 naming the change),
// and a FROM that no registry has fails lock at the Dockerfile's line.
func TestComposeBuildFromLockedBase(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	repo := fmt.Sprintf("nvidia/e2ebuild%d/base", time.Now().UnixNano()%1e9)
	digest := standin.Push(t, standin.Debian(t), w.registry+"/"+repo+":1")
	pulled := w.registry + "/" + repo + ":1@" + digest
	cli := standin.Docker(t)
	t.Cleanup(func() { _, _ = cli.ImageRemove(context.WithoutCancel(t.Context()), pulled, image.RemoveOptions{}) })

	dockerfile := "# a compose build: service's own Dockerfile\n" +
		"ARG BASE_REPO=nvcr.io/" + repo + "\n" +
		"ARG BASE_TAG=0\n" +
		"FROM ${BASE_REPO}:${BASE_TAG} AS base\n" +
		"RUN echo built-from-the-pinned-base > /built\n" +
		"FROM base\n" +
		"CMD [\"sleep\", \"infinity\"]\n"
	composeFile := func(tag string) string {
		return "services:\n  app:\n    build:\n      context: .\n      dockerfile: docker/app.Dockerfile\n      args: {BASE_TAG: \"" + tag + "\"}\n"
	}
	dir, _ := w.project(t, "compose: [compose.yaml]\nservices:\n  shell:\n    profile: image\n    image: nvcr.io/"+plainBase+"\n    command: [\"sleep\", \"infinity\"]\n",
		map[string]string{"compose.yaml": composeFile("1"), "docker/app.Dockerfile": dockerfile})

	w.must(t, dir, "lock")
	lf, err := lock.Read(filepath.Join(dir, "devenv.lock"))
	if err != nil {
		t.Fatal(err)
	}
	app := lf.Service("app")
	want := "nvcr.io/" + repo + ":1"
	if lf.Version != 2 || app == nil || len(app.BuildBases) != 1 || app.BuildBases[0].Ref != want || app.BuildBases[0].Digest != digest {
		t.Fatalf("devenv.lock (version %d) pins app as %+v; want build_bases [%s@%s], the registry's digest", lf.Version, app, want, digest)
	}

	r := w.must(t, dir, "up", "--wait")
	if out := w.must(t, dir, "exec", "app", "cat", "/built").Stdout; strings.TrimSpace(out) != "built-from-the-pinned-base" {
		t.Errorf("app's /built is %q: its image was not built from the Dockerfile", out)
	}
	if _, err := cli.ImageInspect(t.Context(), pulled); err != nil {
		t.Errorf("the engine has no %s: the pinned base was not pulled through the mirror (%v)\n%s", pulled, err, r.Stderr)
	}
	if _, err := cli.ImageInspect(t.Context(), want); err == nil {
		t.Errorf("the engine has an image tagged %s: devenv should send the Dockerfile pinned, not retag the base", want)
	}
	if got := readFile(t, filepath.Join(dir, "docker", "app.Dockerfile")); got != dockerfile {
		t.Errorf("up edited the Dockerfile:\n%s", got)
	}
	if r := w.must(t, dir, "up"); strings.Contains(r.Stdout+r.Stderr, "building") || strings.Contains(r.Stdout+r.Stderr, "pulling") {
		t.Errorf("a second up built or pulled again:\nstdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}

	writeFile(t, dir, "compose.yaml", composeFile("2"))
	r = w.run(t, dir, "up", "--frozen")
	if stale := `the images its Dockerfile builds FROM changed from "nvcr.io/` + repo + `:1" to "nvcr.io/` + repo + `:2"`; r.Code != 5 || !strings.Contains(r.Stderr, stale) {
		t.Errorf("up --frozen after a build arg changed the FROM: exit %d, want 5 saying %q\n%s", r.Code, stale, r.Stderr)
	}
	r = w.run(t, dir, "lock")
	for _, s := range []string{"docker/app.Dockerfile:4:", `compose service "app" (compose.yaml) builds FROM nvcr.io/` + repo + `:2`, "hint:", "mirrors.registries.nvcr.io"} {
		if r.Code == 0 || !strings.Contains(r.Stderr, s) {
			t.Errorf("lock of a FROM no registry has: exit %d, want an error saying %q\n%s", r.Code, s, r.Stderr)
		}
	}
}
