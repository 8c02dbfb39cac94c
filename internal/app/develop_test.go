package app

import (
	"archive/tar"
	"context"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// archiving is the fake engine with a container file system kept as a map
// (CopyTo extracts into it), as the Docker adapter's archive endpoints do.
type archiving struct {
	*enginetest.Fake
	mu    sync.Mutex
	files map[string]string
}

func (a *archiving) CopyTo(_ context.Context, _, dir string, r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if hdr.Typeflag == tar.TypeReg {
			b, _ := io.ReadAll(tr)
			a.mu.Lock()
			a.files[path.Join(dir, hdr.Name)] = string(b)
			a.mu.Unlock()
		}
	}
}

func (a *archiving) CopyFrom(context.Context, string, string) (io.ReadCloser, error) {
	return nil, &engine.Error{Op: "copy", Kind: engine.ErrNotFound, Err: errors.New("no such file")}
}

func (a *archiving) Owner(context.Context, string) (int, int, error) { return 1000, 1000, nil }

func (a *archiving) file(p string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.files[p]
}

// TestDevelopWatchSyncsAndRestarts: a compose service's sync+restart rule
// copies a changed file into its target in the running container and
// restarts the service; rebuild is named as not applied.
func TestDevelopWatchSyncsAndRestarts(t *testing.T) {
	const yaml = `name: demo
services:
  app:
    profile: image
    image: busybox:1
    command: ["sleep", "3600"]
`
	w := newWorld(t, yaml, map[string]string{"src/main.py": "v1\n"})
	arch := &archiving{Fake: w.eng, files: map[string]string{}}
	w.opts.Engine = func(context.Context) (engine.Engine, error) { return arch, nil }
	w.lock(t)
	ctx := t.Context()
	if _, err := w.open(t).Up(ctx, UpOptions{SkipGPUCheck: true}); err != nil {
		t.Fatal(err)
	}
	p := w.open(t)
	if _, err := p.Engine(ctx); err != nil {
		t.Fatal(err)
	}
	running, err := p.runningContainers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := w.eng.Inspect(ctx, running[0].ID)
	svcs := []compose.Service{{Name: "app", Watch: []compose.WatchRule{
		{Path: filepath.Join(w.dir, "src"), Action: "sync+restart", Target: "/app/src"},
		{Path: filepath.Join(w.dir, "requirements.txt"), Action: "rebuild"},
	}}}
	synced := make(chan DevelopSync, 4)
	stop, rules := p.startDevelop(ctx, svcs, running, WatchOptions{Interval: 10 * time.Millisecond, DevelopSynced: func(d DevelopSync) { synced <- d }})
	defer stop()
	if rules != 1 {
		t.Fatalf("%d rules syncing, want the sync+restart one", rules)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "src", "main.py"), []byte("v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-synced:
		if !d.Restarted || d.Service != "app" || len(d.Change.Sent) != 1 {
			t.Errorf("develop sync %+v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the rule did not sync a changed file in 5 s")
	}
	if got := arch.file("/app/src/main.py"); got != "v2\n" {
		t.Errorf("the container's /app/src/main.py holds %q", got)
	}
	after, _ := w.eng.Inspect(ctx, running[0].ID)
	if !after.Running || !after.StartedAt.After(before.StartedAt) {
		t.Errorf("app was not restarted: started %v, then %v", before.StartedAt, after.StartedAt)
	}
	if !strings.Contains(w.stderr.String(), "the rebuild action") {
		t.Errorf("rebuild was not named as not applied:\n%s", w.stderr.String())
	}
}
