package reconcile

import (
	"context"
	"errors"
	"io"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/ui"
)

func svc(name, image string, deps ...string) *plan.Service {
	return plantest.Service("p", name, image, "h-"+name, deps...)
}

func newRunner(t *testing.T, f *enginetest.Fake) *Runner {
	return &Runner{Eng: f, Out: &ui.Printer{Out: io.Discard, Err: io.Discard}, StateDir: filepath.Join(t.TempDir(), ".devenv")}
}

func testPlan() *plan.Plan {
	return &plan.Plan{Project: "p", Network: "p", Volumes: []string{"p_cache"},
		Services: []*plan.Service{svc("db", "postgres@sha256:1"), svc("app", "app@sha256:2", "db")}}
}

func actionsOf(ch []Change) map[string]string {
	out := map[string]string{}
	for _, c := range ch {
		if c.Action != Pulled && c.Action != Built {
			out[c.Service] = c.Action
		}
	}
	return out
}

func TestUpConvergesAndIsIdempotent(t *testing.T) {
	f := enginetest.New()
	r := newRunner(t, f)
	ctx := t.Context()
	pl := testPlan()
	res, err := r.Up(ctx, pl, UpOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a := actionsOf(res.Changes); a["db"] != Created || a["app"] != Created {
		t.Fatalf("first up: %v", a)
	}
	if n := len(f.CallsTo("Pull")); n != 2 {
		t.Errorf("pulled %d images, want 2", n)
	}
	creates := f.CallsTo("Create")
	if creates[0].Arg.(engine.ContainerSpec).Name != "p-db" {
		t.Errorf("app created before the db it depends on")
	}
	res, err = r.Up(ctx, pl, UpOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a := actionsOf(res.Changes); a["db"] != Unchanged || a["app"] != Unchanged {
		t.Fatalf("second up: %v", a)
	}
	if n := len(f.CallsTo("Create")) + len(f.CallsTo("Pull")); n != 2+2 {
		t.Errorf("an unchanged project made engine changes: %d creates+pulls in all", n)
	}
	pl.Services[1].ConfigHash = "h-app-2"
	pl.Services[1].Container.Labels[labels.ConfigHash] = "h-app-2"
	res, _ = r.Up(ctx, pl, UpOptions{})
	if a := actionsOf(res.Changes); a["db"] != Unchanged || a["app"] != Recreated {
		t.Fatalf("after changing app: %v", a)
	}
}

func TestUpSelectsDependencies(t *testing.T) {
	f := enginetest.New()
	res, err := newRunner(t, f).Up(t.Context(), testPlan(), UpOptions{Services: []string{"app"}, NoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	if a := actionsOf(res.Changes); a["db"] != Created || a["app"] != Created {
		t.Fatalf("up app should bring db too: %v", a)
	}
	if len(f.CallsTo("Start")) != 0 {
		t.Error("--no-start started containers")
	}
	if _, err := newRunner(t, f).Up(t.Context(), testPlan(), UpOptions{Services: []string{"nope"}}); err == nil {
		t.Error("unknown service accepted")
	}
}

func TestUpRefusesAForeignContainer(t *testing.T) {
	f := enginetest.New()
	f.AddImage("x", nil)
	if _, err := f.Create(t.Context(), engine.ContainerSpec{Name: "p-db", Image: "x"}); err != nil {
		t.Fatal(err)
	}
	_, err := newRunner(t, f).Up(t.Context(), testPlan(), UpOptions{})
	if err == nil || !strings.Contains(err.Error(), "devenv did not create it") {
		t.Fatalf("want a clear name-conflict error, got %v", err)
	}
	if len(f.CallsTo("Remove")) != 0 {
		t.Error("devenv removed a container it did not create")
	}
}

// TestUpNamesTheProjectOwningAContainer: a container of the same name made
// by another devenv project (project "p" service "x-db" and project "p-x"
// service "db" are both p-x-db) is named with its project and directory,
// not called unlabelled, and left alone.
func TestUpNamesTheProjectOwningAContainer(t *testing.T) {
	f := enginetest.New()
	f.AddImage("x", nil)
	theirs := plan.Labels("p-x", "db")
	theirs[labels.Dir] = "/home/ann/p-x"
	if _, err := f.Create(t.Context(), engine.ContainerSpec{Name: "p-db", Image: "x", Labels: theirs}); err != nil {
		t.Fatal(err)
	}
	_, err := newRunner(t, f).Up(t.Context(), testPlan(), UpOptions{})
	if err == nil || !strings.Contains(err.Error(), `belongs to devenv project "p-x" in /home/ann/p-x`) || strings.Contains(err.Error(), "no devenv label") {
		t.Fatalf("want the owning project named, got %v", err)
	}
	if len(f.CallsTo("Remove")) != 0 {
		t.Error("devenv removed another project's container")
	}
}

func TestGPURefusalSurfaces(t *testing.T) {
	f := enginetest.New()
	pl := testPlan()
	pl.Services[0].Container.Deploy = plantest.GPUs(types.DeviceRequest{Count: 1, Capabilities: []string{"gpu"}})
	_, err := newRunner(t, f).Up(t.Context(), pl, UpOptions{})
	if !errors.Is(err, engine.ErrNoGPURuntime) {
		t.Fatalf("want ErrNoGPURuntime, got %v", err)
	}
}

func TestDownOnlyTouchesTheProject(t *testing.T) {
	f := enginetest.New()
	r := newRunner(t, f)
	ctx := t.Context()
	if _, err := r.Up(ctx, testPlan(), UpOptions{}); err != nil {
		t.Fatal(err)
	}
	f.AddImage("x", nil)
	other, err := f.Create(ctx, engine.ContainerSpec{Name: "other", Image: "x", Labels: map[string]string{labels.Project: "q"}})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.Down(ctx, "p", DownOptions{Volumes: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch) != 4 { // 2 containers, the network, the volume
		t.Errorf("down changes %+v", ch)
	}
	if _, err := f.Inspect(ctx, other); err != nil {
		t.Errorf("down removed another project's container: %v", err)
	}
	st, _ := r.Ps(ctx, "p")
	if len(st) != 0 {
		t.Errorf("ps after down: %+v", st)
	}
}

func TestWaitReportsAnExitedServiceWithItsLogs(t *testing.T) {
	f := enginetest.New()
	f.LogOutput = map[string]string{"p-db": "starting\nFATAL: bad config\n"}
	r := newRunner(t, f)
	ctx := t.Context()
	pl := testPlan()
	if _, err := r.Up(ctx, pl, UpOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Stop(ctx, "p-db", time.Second); err != nil {
		t.Fatal(err)
	}
	proj, err := r.render(pl)
	if err != nil {
		t.Fatal(err)
	}
	err = r.WaitHealthy(ctx, proj, pl.Services[:1], 2*time.Second)
	var u *UnhealthyError
	if !errors.As(err, &u) || u.Service != "db" || !strings.Contains(err.Error(), "FATAL: bad config") {
		t.Fatalf("want the db's exit with its logs, got %v", err)
	}
}

// TestFailedStartKeepsTheContainer: a container up created but could not
// start (a port taken since the preflight) is kept, as Compose keeps it,
// so that its logs and its inspect can be read; the error is the
// engine's and says how to see them. The next up starts it again.
func TestFailedStartKeepsTheContainer(t *testing.T) {
	f := enginetest.New()
	f.Fail = map[string]error{"Start": errors.New("Bind for 127.0.0.1:5432 failed: port is already allocated")}
	r := newRunner(t, f)
	_, err := r.Up(t.Context(), testPlan(), UpOptions{Services: []string{"db"}})
	if err == nil || !strings.Contains(err.Error(), "port is already allocated") {
		t.Fatalf("want the engine's port error, got %v", err)
	}
	if !strings.Contains(err.Error(), "devenv logs db") {
		t.Errorf("the error does not say how to see the container's logs: %v", err)
	}
	left, _ := f.List(t.Context(), engine.Containers, map[string]string{labels.Project: "p"})
	if len(left) != 1 || left[0].Name != "p-db" || left[0].State != "created" {
		t.Fatalf("containers after the failed start: %+v, want p-db kept as created", left)
	}
	f.Fail = nil
	ch, err := r.Up(t.Context(), testPlan(), UpOptions{Services: []string{"db"}})
	if err != nil {
		t.Fatal(err)
	}
	if a := actionsOf(ch.Changes); a["db"] != Started {
		t.Errorf("the next up: %v, want db started", a)
	}
}

// Up refuses a service whose env_file is missing before it builds, pulls or
// creates anything, and names where devenv.yaml asks for the file.
func TestUpRefusesMissingEnvFileFirst(t *testing.T) {
	f := enginetest.New()
	r := newRunner(t, f)
	pl := testPlan()
	pl.Services[1].MissingEnvFile, pl.Services[1].MissingEnvFileAt = ".env.local", "devenv.yaml:7:5"
	_, err := r.Up(t.Context(), pl, UpOptions{})
	if err == nil || !strings.Contains(err.Error(), `devenv.yaml:7:5: env_file ".env.local" of service "app" does not exist`) {
		t.Fatalf("Up = %v", err)
	}
	if calls := f.CallsTo("Pull"); len(calls)+len(f.CallsTo("Create"))+len(f.CallsTo("Build")) != 0 {
		t.Errorf("engine called before the refusal: %d pulls", len(calls))
	}
}

// slowStops is an engine whose Stop returns only once every running
// container's stop has begun, or fails after a while: down must stop the
// project's containers side by side, not one after another.
type slowStops struct {
	*enginetest.Fake
	want    int
	mu      sync.Mutex
	started int
	all     chan struct{}
}

func (s *slowStops) Stop(ctx context.Context, id string, timeout time.Duration) error {
	s.mu.Lock()
	s.started++
	if s.started == s.want {
		close(s.all)
	}
	s.mu.Unlock()
	select {
	case <-s.all:
		return s.Fake.Stop(ctx, id, timeout)
	case <-time.After(10 * time.Second):
		return errors.New("stopped one container at a time")
	}
}

func TestDownStopsContainersSideBySide(t *testing.T) {
	f := enginetest.New()
	ctx := t.Context()
	r := newRunner(t, f)
	if _, err := r.Up(ctx, testPlan(), UpOptions{}); err != nil {
		t.Fatal(err)
	}
	r.Eng = &slowStops{Fake: f, want: 2, all: make(chan struct{})} // testPlan runs 2 containers
	ch, err := r.Down(ctx, "p", DownOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch) != 3 || ch[0].Detail > ch[1].Detail { // 2 containers in name order, the network
		t.Errorf("down changes %+v", ch)
	}
}

// busyNetwork fails the first removals of a network as Docker 20.10 does
// while it still releases the endpoints of containers just removed.
type busyNetwork struct {
	*enginetest.Fake
	busy int
}

func (b *busyNetwork) Remove(ctx context.Context, k engine.Kind, id string, force bool) error {
	if k == engine.Networks && b.busy > 0 {
		b.busy--
		return errors.New("error while removing network: network p id 1234 has active endpoints")
	}
	return b.Fake.Remove(ctx, k, id, force)
}

func TestDownWaitsForNetworkEndpoints(t *testing.T) {
	f := enginetest.New()
	ctx := t.Context()
	r := newRunner(t, f)
	if _, err := r.Up(ctx, testPlan(), UpOptions{}); err != nil {
		t.Fatal(err)
	}
	r.Eng = &busyNetwork{Fake: f, busy: 2}
	ch, err := r.Down(ctx, "p", DownOptions{})
	if err != nil || len(ch) != 3 {
		t.Fatalf("down = %+v, %v; want 2 containers and the network removed", ch, err)
	}
	objs, err := f.List(ctx, engine.Networks, map[string]string{labels.Project: "p"})
	if err != nil || len(objs) != 0 {
		t.Errorf("networks left: %+v %v", objs, err)
	}
}

// networkFirst holds every container removal until the project network's
// removal has begun: down must not wait for the containers to be removed
// before it removes the network of containers it stopped.
type networkFirst struct {
	*enginetest.Fake
	once    sync.Once
	netGone chan struct{}
}

func (n *networkFirst) Remove(ctx context.Context, k engine.Kind, id string, force bool) error {
	if k == engine.Networks {
		n.once.Do(func() { close(n.netGone) })
		return n.Fake.Remove(ctx, k, id, force)
	}
	select {
	case <-n.netGone:
	case <-time.After(10 * time.Second):
		return errors.New("the network was removed only after the containers")
	}
	return n.Fake.Remove(ctx, k, id, force)
}

func TestDownRemovesTheNetworkOnceContainersStopped(t *testing.T) {
	f := enginetest.New()
	ctx := t.Context()
	r := newRunner(t, f)
	if _, err := r.Up(ctx, testPlan(), UpOptions{}); err != nil {
		t.Fatal(err)
	}
	r.Eng = &networkFirst{Fake: f, netGone: make(chan struct{})}
	ch, err := r.Down(ctx, "p", DownOptions{})
	if err != nil || len(ch) != 3 || ch[2].Detail != "network p" {
		t.Fatalf("down = %+v, %v; want the 2 containers, then the network", ch, err)
	}
}

func TestDownKeepsTheNetworkWhenAStopFails(t *testing.T) {
	f := enginetest.New()
	ctx := t.Context()
	r := newRunner(t, f)
	if _, err := r.Up(ctx, testPlan(), UpOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Fail = map[string]error{"Stop": errors.New("cannot kill container: permission denied")}
	if _, err := r.Down(ctx, "p", DownOptions{}); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("down: %v, want the stop's error", err)
	}
	for _, k := range []engine.Kind{engine.Containers, engine.Networks} {
		objs, err := f.List(ctx, k, map[string]string{labels.Project: "p"})
		if err != nil || len(objs) == 0 {
			t.Errorf("%s removed although a container could not be stopped: %+v %v", k, objs, err)
		}
	}
}

// fakeSpec is the container the fake engine makes for s when a test makes
// it by hand (as an earlier devenv, or another tool, would have): its
// name, image, labels and network.
func fakeSpec(s *plan.Service) engine.ContainerSpec {
	return engine.ContainerSpec{Name: s.Container.ContainerName, Image: s.Image, Labels: maps.Clone(s.Container.Labels), Network: "p"}
}
