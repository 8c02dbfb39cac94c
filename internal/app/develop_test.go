package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// failingBuilds is the fake engine whose builds fail while fail is set.
type failingBuilds struct {
	*enginetest.Fake
	fail atomic.Bool
}

func (f *failingBuilds) Build(ctx context.Context, req engine.BuildRequest, progress func(engine.Progress)) (string, error) {
	if f.fail.Load() {
		return "", errors.New("RUN pip install -r requirements.txt: exit code 1")
	}
	return f.Fake.Build(ctx, req, progress)
}

const watchCompose = `services:
  web:
    build: ./web
    command: ["sleep", "3600"]
    develop:
      watch:
        - path: ./web/site
          action: sync
          target: /srv/site
        - path: ./web/Dockerfile
          action: rebuild
  worker:
    image: busybox:1
    develop:
      watch:
        - path: ./jobs
          action: sync+restart
          target: /jobs
  db:
    image: busybox:1
`

// watchWorld is a project whose compose services web (build:) and worker
// have develop.watch rules, up on the fake engine (a local one) but for
// worker, opened again for watching.
func watchWorld(t *testing.T) (*world, *failingBuilds, *Project) {
	t.Helper()
	const yaml = "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: busybox:1\n"
	w := newWorld(t, yaml, map[string]string{"compose.yaml": watchCompose, "web/Dockerfile": "FROM busybox:1\nCOPY . /app\n",
		"web/site/index.html": "v1\n", "jobs/etl.py": "v1\n"})
	eng := &failingBuilds{Fake: w.eng}
	w.opts.Engine = func(context.Context) (engine.Engine, error) { return eng, nil }
	w.lock(t)
	if _, err := w.open(t).Up(t.Context(), UpOptions{Services: []string{"web", "db", "app"}, SkipGPUCheck: true}); err != nil {
		t.Fatal(err)
	}
	return w, eng, w.open(t)
}

// watching runs p.Watch until the test ends it (stop), returning its error.
func watching(t *testing.T, p *Project, o WatchOptions) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := p.Watch(ctx, o)
		done <- err
	}()
	return func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			t.Fatal("Watch did not end in 5 s after its context")
			return nil
		}
	}
}

// TestWatchHandsTheDevelopRulesToCompose: on a local engine, watch hands
// the compose services with develop.watch rules, in the project as up
// renders it (compose-go's own rules, paths absolute, build: kept), to
// the executor's WatchProject (Compose's Watch) until Ctrl-C; a service
// with no running container is named.
func TestWatchHandsTheDevelopRulesToCompose(t *testing.T) {
	w, eng, p := watchWorld(t)
	got := make(chan engine.ProjectWatch, 1)
	eng.WatchFunc = func(ctx context.Context, pw engine.ProjectWatch) error {
		got <- pw
		<-ctx.Done()
		return nil
	}
	var began atomic.Bool
	stop := watching(t, p, WatchOptions{Watching: func() { began.Store(true) }})
	var pw engine.ProjectWatch
	select {
	case pw = <-got:
	case <-time.After(5 * time.Second):
		t.Fatalf("WatchProject was not called in 5 s:\n%s", w.stderr.String())
	}
	if err := stop(); err != nil {
		t.Fatalf("Watch ended with %v after Ctrl-C, want nil", err)
	}
	if !slices.Equal(pw.Services, []string{"web", "worker"}) || pw.Project.Name != "demo" || pw.Rebuild == nil {
		t.Fatalf("watched %v of %s (rebuild %v), want web and worker of demo with devenv's rebuild", pw.Services, pw.Project.Name, pw.Rebuild != nil)
	}
	web := pw.Project.Services["web"]
	want := []types.Trigger{
		{Path: filepath.Join(w.dir, "web", "site"), Action: types.WatchActionSync, Target: "/srv/site"},
		{Path: filepath.Join(w.dir, "web", "Dockerfile"), Action: types.WatchActionRebuild},
	}
	if web.Develop == nil || len(web.Develop.Watch) != 2 || web.Build == nil {
		t.Fatalf("web as handed over: develop %+v, build %+v", web.Develop, web.Build)
	}
	for i, r := range web.Develop.Watch {
		if r.Path != want[i].Path || r.Action != want[i].Action || r.Target != want[i].Target {
			t.Errorf("web's rule %d: %s %s %s, want %s %s %s", i, r.Path, r.Action, r.Target, want[i].Path, want[i].Action, want[i].Target)
		}
	}
	if !began.Load() {
		t.Error("Watching was not told the watch began")
	}
	out := w.stderr.String()
	if !strings.Contains(out, "develop.watch of worker: no running container") || strings.Contains(out, "develop.watch of web: no running") {
		t.Errorf("the service without a container was not named (or web was):\n%s", out)
	}
	if !strings.Contains(out, "applying the develop.watch rules of web, worker") {
		t.Errorf("watch did not say what it applies:\n%s", out)
	}
}

// TestWatchRebuildIsDevenvsUp: the rebuild Compose's watch hands back is
// devenv's up of the service: its image built again and its container
// recreated, reported; a failing build is the rebuild's error (Compose's
// side warns and goes on), and the next change builds again.
func TestWatchRebuildIsDevenvsUp(t *testing.T) {
	w, eng, p := watchWorld(t)
	ctx := t.Context()
	before, err := eng.Inspect(ctx, "demo-web")
	if err != nil {
		t.Fatal(err)
	}
	var reports []DevelopRebuild
	var rebuildErrs []error
	eng.WatchFunc = func(ctx context.Context, pw engine.ProjectWatch) error {
		for i, fail := range []bool{false, true, false} {
			eng.fail.Store(fail)
			if err := os.WriteFile(filepath.Join(w.dir, "web", "Dockerfile"), []byte("FROM busybox:1\nCOPY . /app\nLABEL v="+string(rune('1'+i))+"\n"), 0o644); err != nil {
				return err
			}
			rebuildErrs = append(rebuildErrs, pw.Rebuild(ctx, []string{"web"}))
		}
		return nil
	}
	if _, err := p.Watch(ctx, WatchOptions{DevelopRebuilt: func(d DevelopRebuild) { reports = append(reports, d) }}); err != nil {
		t.Fatal(err)
	}
	if rebuildErrs[0] != nil || rebuildErrs[2] != nil || rebuildErrs[1] == nil || !strings.Contains(rebuildErrs[1].Error(), "exit code 1") {
		t.Fatalf("rebuilds answered %v, want the failing build's error second only", rebuildErrs)
	}
	if len(reports) != 2 {
		t.Fatalf("%d rebuilds reported, want the two that built: %+v", len(reports), reports)
	}
	for _, r := range reports {
		if !slices.Equal(r.Services, []string{"web"}) || !hasChange(r.Changes, "web", reconcile.Built) || !hasChange(r.Changes, "web", reconcile.Recreated) {
			t.Errorf("rebuild reported %+v, want web built and recreated", r)
		}
	}
	if now, err := eng.Inspect(ctx, "demo-web"); err != nil || now.ID == before.ID || !now.Running {
		t.Errorf("web's container is %+v (%v), want a new one running in place of %s", now, err, before.ID)
	}
}

// TestWatchWithoutDevelopRules: on a local engine a project without
// develop.watch rules, or forward (ports only), has nothing to watch:
// watch says so and returns, and Compose's watch is never started; a
// watch that cannot start is watch's error.
func TestWatchWithoutDevelopRules(t *testing.T) {
	tests := []struct {
		name    string
		compose string
		opts    WatchOptions
		fail    error
		want    string
	}{
		{"no rules", "services:\n  db:\n    image: busybox:1\n", WatchOptions{}, nil, "nothing to sync or forward"},
		{"forward only", watchCompose, WatchOptions{NoSync: true}, nil, "nothing to sync or forward"},
		{"a watch that cannot start", watchCompose, WatchOptions{}, errors.New("initial sync: permission denied"), "permission denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const yaml = "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: busybox:1\n"
			w := newWorld(t, yaml, map[string]string{"compose.yaml": tt.compose, "web/Dockerfile": "FROM busybox:1\n"})
			w.eng.Fail = map[string]error{"WatchProject": tt.fail}
			w.lock(t)
			_, err := w.open(t).Watch(t.Context(), tt.opts)
			calls := len(w.eng.CallsTo("WatchProject"))
			if tt.fail != nil {
				if err == nil || !strings.Contains(err.Error(), tt.want) || calls != 1 {
					t.Errorf("Watch: %v after %d WatchProject call(s), want %q", err, calls, tt.want)
				}
				return
			}
			if err != nil || calls != 0 || !strings.Contains(w.stderr.String(), tt.want) {
				t.Errorf("Watch: %v after %d WatchProject call(s), said:\n%s", err, calls, w.stderr.String())
			}
		})
	}
}

func hasChange(chs []reconcile.Change, svc, action string) bool {
	return slices.ContainsFunc(chs, func(c reconcile.Change) bool { return c.Service == svc && c.Action == action })
}
