package app

import (
	"archive/tar"
	"context"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/reconcile"
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

// developWorld is a project whose service app (busybox, sleeping) is up
// on the fake engine with a container file system, opened again for
// watching, with its running containers.
func developWorld(t *testing.T, files map[string]string) (*world, *archiving, *Project, []engine.Object) {
	t.Helper()
	const yaml = `name: demo
services:
  app:
    profile: image
    image: busybox:1
    command: ["sleep", "3600"]
`
	w := newWorld(t, yaml, files)
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
	return w, arch, p, running
}

// nextSync is the next develop.watch report, failing after 5 s.
func nextSync(t *testing.T, synced <-chan DevelopSync, what string) DevelopSync {
	t.Helper()
	select {
	case d := <-synced:
		return d
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: nothing in 5 s", what)
	}
	return DevelopSync{}
}

// TestDevelopWatchSyncsAndRestarts: a compose service's sync+restart rule
// copies a changed file into its target in the running container and
// restarts the service; a rebuild rule of a service without build: is
// refused with a hint.
func TestDevelopWatchSyncsAndRestarts(t *testing.T) {
	w, arch, p, running := developWorld(t, map[string]string{"src/main.py": "v1\n"})
	ctx := t.Context()
	before, _ := w.eng.Inspect(ctx, running[0].ID)
	svcs := []compose.Service{{Name: "app", Watch: []compose.WatchRule{
		{Path: filepath.Join(w.dir, "src"), Action: "sync+restart", Target: "/app/src"},
		{Path: filepath.Join(w.dir, "requirements.txt"), Action: "rebuild"},
	}}}
	synced := make(chan DevelopSync, 4)
	stop, rules := p.startDevelop(ctx, svcs, running, WatchOptions{Interval: 10 * time.Millisecond, DevelopSynced: func(d DevelopSync) { synced <- d }})
	defer stop()
	if rules != 1 {
		t.Fatalf("%d rules watched, want the sync+restart one", rules)
	}
	replaceFile(t, filepath.Join(w.dir, "src", "main.py"), []byte("v2\n"))
	if d := nextSync(t, synced, "a changed file"); !d.Restarted || d.Service != "app" || len(d.Change.Sent) != 1 {
		t.Errorf("develop sync %+v", d)
	}
	if got := arch.file("/app/src/main.py"); got != "v2\n" {
		t.Errorf("the container's /app/src/main.py holds %q", got)
	}
	after, _ := w.eng.Inspect(ctx, running[0].ID)
	if !after.Running || !after.StartedAt.After(before.StartedAt) {
		t.Errorf("app was not restarted: started %v, then %v", before.StartedAt, after.StartedAt)
	}
	if !strings.Contains(w.stderr.String(), "no build: section") {
		t.Errorf("a rebuild rule without build: was not refused:\n%s", w.stderr.String())
	}
}

// TestDevelopWatchRestarts: a restart rule restarts the service's
// container when a file under its path changes, copies nothing into it,
// and leaves changes its ignore patterns match alone.
func TestDevelopWatchRestarts(t *testing.T) {
	w, arch, p, running := developWorld(t, map[string]string{"conf/app.conf": "a=1\n"})
	ctx := t.Context()
	before, _ := w.eng.Inspect(ctx, running[0].ID)
	svcs := []compose.Service{{Name: "app", Watch: []compose.WatchRule{
		{Path: filepath.Join(w.dir, "conf"), Action: "restart", Ignore: []string{"*.swp"}},
	}}}
	synced := make(chan DevelopSync, 4)
	stop, rules := p.startDevelop(ctx, svcs, running, WatchOptions{Interval: 10 * time.Millisecond, DevelopSynced: func(d DevelopSync) { synced <- d }})
	defer stop()
	if rules != 1 {
		t.Fatalf("%d rules watched, want the restart one", rules)
	}
	replaceFile(t, filepath.Join(w.dir, "conf", ".app.conf.swp"), []byte("x"))
	select {
	case d := <-synced:
		t.Fatalf("an ignored file set the rule off: %+v", d)
	case <-time.After(100 * time.Millisecond):
	}
	replaceFile(t, filepath.Join(w.dir, "conf", "app.conf"), []byte("a=2\n"))
	if d := nextSync(t, synced, "a changed file"); !d.Restarted || d.Action != "restart" || !slices.Equal(d.Change.Sent, []string{"app.conf"}) {
		t.Errorf("develop report %+v", d)
	}
	after, _ := w.eng.Inspect(ctx, running[0].ID)
	if !after.Running || !after.StartedAt.After(before.StartedAt) {
		t.Errorf("app was not restarted: started %v, then %v", before.StartedAt, after.StartedAt)
	}
	arch.mu.Lock()
	defer arch.mu.Unlock()
	if len(arch.files) != 0 {
		t.Errorf("a restart rule copied files into the container: %v", arch.files)
	}
}

// TestDevelopWatchSyncsAndExecs: a sync+exec rule copies the change into
// its target, then runs exec.command in the container as exec.user, in
// exec.working_dir, with exec.environment, and reports its exit status and
// output.
func TestDevelopWatchSyncsAndExecs(t *testing.T) {
	w, arch, p, running := developWorld(t, map[string]string{"jobs/etl.py": "v1\n"})
	ctx := t.Context()
	var mu sync.Mutex
	var ran []engine.ExecOptions
	arch.Fake.ExecFunc = func(o engine.ExecOptions) (int, string) {
		if len(o.Cmd) > 0 && o.Cmd[0] == "python" {
			mu.Lock()
			ran = append(ran, o)
			mu.Unlock()
			return 3, "compiled etl.py\n"
		}
		return 0, ""
	}
	x := &compose.WatchExec{Command: []string{"python", "-m", "compileall", "."}, User: "1000", WorkingDir: "/app/jobs", Env: []string{"MODE=check"}}
	svcs := []compose.Service{{Name: "app", Watch: []compose.WatchRule{
		{Path: filepath.Join(w.dir, "jobs"), Action: "sync+exec", Target: "/app/jobs", Exec: x},
		{Path: filepath.Join(w.dir, "jobs"), Action: "sync+exec", Target: "/app/other"},
	}}}
	synced := make(chan DevelopSync, 4)
	stop, rules := p.startDevelop(ctx, svcs, running, WatchOptions{Interval: 10 * time.Millisecond, DevelopSynced: func(d DevelopSync) { synced <- d }})
	defer stop()
	if rules != 1 || !strings.Contains(w.stderr.String(), "no exec.command") {
		t.Fatalf("%d rules watched, want the one with exec.command (the other named):\n%s", rules, w.stderr.String())
	}
	replaceFile(t, filepath.Join(w.dir, "jobs", "etl.py"), []byte("v2\n"))
	d := nextSync(t, synced, "a changed file")
	if d.Err != nil || d.ExitCode != 3 || d.Output != "compiled etl.py\n" || !slices.Equal(d.Exec, x.Command) || d.Restarted {
		t.Errorf("develop report %+v", d)
	}
	if got := arch.file("/app/jobs/etl.py"); got != "v2\n" {
		t.Errorf("the container's /app/jobs/etl.py holds %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ran) != 1 || ran[0].User != "1000" || ran[0].WorkingDir != "/app/jobs" || !slices.Equal(ran[0].Env, []string{"MODE=check"}) {
		t.Errorf("the command ran as %+v, want once as 1000 in /app/jobs with MODE=check", ran)
	}
}

// failingBuilds is the archiving fake whose builds fail while fail is set.
type failingBuilds struct {
	*archiving
	fail atomic.Bool
}

func (f *failingBuilds) Build(ctx context.Context, req engine.BuildRequest, progress func(engine.Progress)) (string, error) {
	if f.fail.Load() {
		return "", errors.New("RUN pip install -r requirements.txt: exit code 1")
	}
	return f.archiving.Build(ctx, req, progress)
}

// TestDevelopWatchRebuilds: a rebuild rule of a compose service with
// build: builds its image again and recreates its container when a file
// under its path changes, as `devenv up SERVICE` does; a failing build is
// reported and the rule goes on watching.
func TestDevelopWatchRebuilds(t *testing.T) {
	const yaml = "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: busybox:1\n"
	compose := "services:\n  web:\n    build: ./web\n    command: [\"sleep\", \"3600\"]\n    develop:\n      watch:\n        - path: ./web\n          action: rebuild\n"
	w := newWorld(t, yaml, map[string]string{"compose.yaml": compose, "web/Dockerfile": "FROM busybox:1\nCOPY . /app\n", "web/app.py": "v1\n"})
	eng := &failingBuilds{archiving: &archiving{Fake: w.eng, files: map[string]string{}}}
	w.opts.Engine = func(context.Context) (engine.Engine, error) { return eng, nil }
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
	web := containerOf(running, "web")
	if err != nil || web == "" {
		t.Fatalf("running %v (%v), want web", running, err)
	}
	before, _ := eng.Inspect(ctx, web)
	svcs, err := p.composeWatch(ctx)
	if err != nil || len(svcs) != 1 {
		t.Fatalf("compose services with develop.watch: %v (%v)", svcs, err)
	}
	synced := make(chan DevelopSync, 4)
	stop, rules := p.startDevelop(ctx, svcs, running, WatchOptions{Interval: 10 * time.Millisecond, DevelopSynced: func(d DevelopSync) { synced <- d }})
	defer stop()
	if rules != 1 {
		t.Fatalf("%d rules watched, want the rebuild one:\n%s", rules, w.stderr.String())
	}
	replaceFile(t, filepath.Join(w.dir, "web", "app.py"), []byte("v2\n"))
	d := nextSync(t, synced, "a changed file")
	if d.Err != nil || d.Action != "rebuild" || !hasChange(d.Rebuilt, "web", "built") || !hasChange(d.Rebuilt, "web", "recreated") {
		t.Fatalf("develop report %+v, want web built and recreated", d)
	}
	if now, err := eng.Inspect(ctx, web); err != nil || now.ID == before.ID || !now.Running {
		t.Errorf("web's container is %+v (%v), want a new one running in place of %s", now, err, before.ID)
	}

	eng.fail.Store(true)
	replaceFile(t, filepath.Join(w.dir, "web", "app.py"), []byte("v3\n"))
	if d := nextSync(t, synced, "a change with a failing build"); d.Err == nil || !strings.Contains(d.Err.Error(), "exit code 1") {
		t.Fatalf("a failing build was reported as %+v", d)
	}
	eng.fail.Store(false)
	replaceFile(t, filepath.Join(w.dir, "web", "app.py"), []byte("v4\n"))
	if d := nextSync(t, synced, "a change after the failed build"); d.Err != nil || !hasChange(d.Rebuilt, "web", "built") {
		t.Errorf("after a failed build the rule reported %+v, want web built again", d)
	}
}

func hasChange(chs []reconcile.Change, svc, action string) bool {
	return slices.ContainsFunc(chs, func(c reconcile.Change) bool { return c.Service == svc && c.Action == action })
}

// replaceFile gives name new contents at once (written beside the project
// and renamed), so a scan never sees it half-written.
func replaceFile(t *testing.T, name string, b []byte) {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "new")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
}
