package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/image"
)

// localImage tags the stand-in Debian image under a name no registry has,
// as a user's own `docker build -t` would, and removes the tag at cleanup.
func localImage(t *testing.T) string {
	t.Helper()
	ref := fmt.Sprintf("e2elocal%d/tool:dev", time.Now().UnixNano()%1e9)
	cli := standin.Docker(t)
	if err := cli.ImageTag(t.Context(), standin.Debian(t), ref); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = cli.ImageRemove(context.WithoutCancel(t.Context()), ref, image.RemoveOptions{}) }) // t.Context() ends before cleanups
	return ref
}

// TestComposeServicesFirstClass: a compose service whose image exists only
// on this machine is locked by its image ID (lock says so) and runs; logs
// without names shows compose services; a profile's service starts only
// with --profile; a warning about an ignored compose key is printed once
// per change of the compose file, not on every up.
func TestComposeServicesFirstClass(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	local := localImage(t)
	composeFile := func(extraKey string) string {
		return `services:
  tool:
    image: ` + local + `
    pull_policy: never
    command: ["sh", "-c", "echo hello-from-tool; exec sleep infinity"]
    restart: always
` + extraKey + `  extra:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    profiles: [debug]
`
	}
	dir, name := w.project(t, `compose: [compose.yaml]
services:
  shell:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
`, map[string]string{"compose.yaml": composeFile("")})

	r := w.must(t, dir, "lock")
	if !strings.Contains(r.Stderr+r.Stdout, "pinned by its local image ID sha256:") {
		t.Errorf("lock does not say tool is pinned by its local image ID:\nstdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
	lockText := readFile(t, dir+"/devenv.lock")
	if !strings.Contains(lockText, `"local": true`) {
		t.Errorf("devenv.lock does not mark tool's image as local:\n%s", lockText)
	}

	r = w.must(t, dir, "up", "--wait")
	if !strings.Contains(r.Stderr, "restart is ignored") {
		t.Errorf("first up does not warn about restart:\n%s", r.Stderr)
	}
	img, err := standin.Docker(t).ImageInspect(t.Context(), local)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lockText, `"digest": "`+img.ID+`"`) {
		t.Errorf("devenv.lock does not pin tool by the local image ID %s:\n%s", img.ID, lockText)
	}
	tool := inspect(t, name+"-tool")
	if !tool.State.Running || tool.Config.Image != img.ID {
		t.Fatalf("tool: running %v, image %q; want it running the locked image ID %s", tool.State.Running, tool.Config.Image, img.ID)
	}
	if _, err := standin.Docker(t).ContainerInspect(t.Context(), name+"-extra"); err == nil {
		t.Error("extra (profile debug) started without --profile")
	}

	r = w.must(t, dir, "up")
	if strings.Contains(r.Stderr, "restart is ignored") {
		t.Errorf("second up repeats the unchanged compose warning:\n%s", r.Stderr)
	}

	if r := w.must(t, dir, "logs"); !strings.Contains(r.Stdout, "hello-from-tool") {
		t.Errorf("logs without names leaves out the compose service:\n%s", r.Stdout)
	}

	writeFile(t, dir, "compose.yaml", composeFile("    cap_add: [NET_ADMIN]\n"))
	w.must(t, dir, "lock")
	r = w.must(t, dir, "--profile", "debug", "up")
	if !strings.Contains(r.Stderr, "cap_add is ignored") || !strings.Contains(r.Stderr, "restart is ignored") {
		t.Errorf("up after a compose change does not print the changed warnings:\n%s", r.Stderr)
	}
	if c := inspect(t, name+"-extra"); !c.State.Running {
		t.Errorf("extra is %s with --profile debug", c.State.Status)
	}
}
