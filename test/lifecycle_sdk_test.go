package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// startRunsPostStartAndDownTakesAnonymousVolumes: with the compose
// service of TestComposeServicesFirstClass stopped, `stop -t 0` kills it
// at once after its pre_stop hook (not after its 3s stop_grace_period);
// `start` starts it through Compose, so its post_start hook runs again;
// `down --volumes` removes its anonymous volume, as Compose's down -v
// does.
func startRunsPostStartAndDownTakesAnonymousVolumes(t *testing.T, w *world, dir, container string) {
	t.Helper()
	w.must(t, dir, "start", "tool")
	w.must(t, dir, "exec", "tool", "rm", "/tmp/post-start")
	w.must(t, dir, "stop", "-t", "0", "tool")
	if waited := killedAfterPreStop(t, dir, container); waited > 2500*time.Millisecond {
		t.Errorf("stop -t 0: tool was killed %v after its pre_stop hook, want at once (its stop_grace_period is 3s)", waited)
	}
	w.must(t, dir, "start", "tool")
	if r := w.must(t, dir, "exec", "tool", "cat", "/tmp/post-start"); strings.TrimSpace(r.Stdout) != "started" {
		t.Errorf("devenv start did not run the post_start hook: /tmp/post-start is %q (%s)", r.Stdout, r.Stderr)
	}
	// a recreate (up after the compose change) carried the first anonymous
	// volume over by its name, and the engine removes only the ones it
	// made with a container; the one of a new container goes with it
	carried := anonymousVolume(t, container)
	t.Cleanup(func() { _ = standin.Docker(t).VolumeRemove(context.WithoutCancel(t.Context()), carried, true) })
	w.must(t, dir, "rm", "--stop", "tool")
	w.must(t, dir, "up", "tool")
	scratch := anonymousVolume(t, container)
	if scratch == carried {
		t.Fatalf("up after rm gave tool the removed container's volume %s", carried)
	}
	w.must(t, dir, "down", "--volumes")
	if _, err := standin.Docker(t).VolumeInspect(t.Context(), scratch); err == nil {
		t.Errorf("down --volumes left tool's anonymous volume %s", scratch)
	}
}

// anonymousVolume is the name of the volume at the container's /scratch.
func anonymousVolume(t *testing.T, container string) string {
	t.Helper()
	for _, m := range inspect(t, container).Mounts {
		if m.Destination == "/scratch" && m.Name != "" {
			return m.Name
		}
	}
	t.Fatalf("%s has no volume at /scratch", container)
	return ""
}

// killedAfterPreStop is how long after its pre_stop hook (which writes
// the time into out/pre-stop) the stopped container exited.
func killedAfterPreStop(t *testing.T, dir, container string) time.Duration {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "out", "pre-stop"))
	if err != nil {
		t.Fatalf("the pre_stop hook did not run: %v", err)
	}
	hook, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil {
		t.Fatalf("the pre_stop hook wrote %q: %v", b, err)
	}
	c := inspect(t, container)
	finished, err := time.Parse(time.RFC3339Nano, c.State.FinishedAt)
	if c.State.Running || err != nil {
		t.Fatalf("%s after devenv stop: running %v, finished at %q (%v)", container, c.State.Running, c.State.FinishedAt, err)
	}
	return finished.Sub(time.Unix(0, int64(hook*1e9)))
}
