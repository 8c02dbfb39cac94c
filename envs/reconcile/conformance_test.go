package reconcile

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose/sdk"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/devenv-dev/devenv/internal/view/execview"
)

// An engine the conformance scenarios run against: the fake (unit tests)
// or the real one (TestIntegrationConformance), so the fake cannot drift
// from what the engine does.
type conformanceEngine struct {
	eng   engine.Engine
	image string // an image the engine has, whose `sleep infinity` runs
	// duplicateNetwork makes a second network of that name, as racing
	// creators on an engine before API 1.44 could.
	duplicateNetwork func(t *testing.T, name string, labels map[string]string)
	// retag gives the name ref to an image of its own for rev (a tag
	// pulled or built again names another image); nil: the engine does
	// not label containers with their image's id, as Compose does.
	retag func(t *testing.T, ref string, rev int)
}

var conformanceScenarios = []struct {
	name string
	run  func(t *testing.T, ce conformanceEngine, r *Runner, project string)
}{
	{"converges, then changes nothing", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		pl := conformancePlan(project, ce.image, "1", "db", "app")
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Created, "app": Created})
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Unchanged, "app": Unchanged})
	}},
	{"recreates what changed, and what is forced", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		up(t, r, conformancePlan(project, ce.image, "1", "db", "app"), UpOptions{})
		changed := conformancePlan(project, ce.image, "1", "db", "app")
		changed.Service("app").ConfigHash = "h-app-2"
		changed.Service("app").Container.Labels[labels.ConfigHash] = "h-app-2"
		wantActions(t, up(t, r, changed, UpOptions{}), map[string]string{"db": Unchanged, "app": Recreated})
		wantActions(t, up(t, r, changed, UpOptions{ForceRecreate: true, NoDeps: true, Services: []string{"db"}}), map[string]string{"db": Recreated})
	}},
	{"keeps the running containers an earlier devenv made", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		// before the Compose SDK ran devenv's projects, devenv made the
		// containers itself and labelled them "devenv-" and its own hash
		pl := conformancePlan(project, ce.image, "1", "db", "app")
		if _, err := ce.eng.EnsureNetwork(t.Context(), project, plan.Labels(project, "")); err != nil {
			t.Fatal(err)
		}
		ids := map[string]string{}
		for _, s := range pl.Services {
			spec := engine.ContainerSpec{Name: s.Container.ContainerName, Image: s.Image, Network: project, Aliases: []string{s.Name},
				Cmd: s.Container.Command, Init: true, Labels: maps.Clone(s.Container.Labels)}
			maps.Copy(spec.Labels, labels.Compose(project, s.Name, "", s.ConfigHash))
			id, err := ce.eng.Create(t.Context(), spec)
			if err != nil {
				t.Fatal(err)
			}
			if err := ce.eng.Start(t.Context(), id); err != nil {
				t.Fatal(err)
			}
			ids[s.Name] = id
		}
		if err := ce.eng.Stop(t.Context(), ids["db"], 0); err != nil {
			t.Fatal(err)
		}
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"app": Unchanged, "db": Recreated})
		if st, err := ce.eng.Inspect(t.Context(), ids["app"]); err != nil || !st.Running {
			t.Errorf("the earlier devenv's running app container was replaced or stopped (%v)", err)
		}
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"app": Unchanged, "db": Unchanged})
	}},
	{"starts what is stopped, creates without starting with --no-start", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		pl := conformancePlan(project, ce.image, "1", "db", "app")
		up(t, r, pl, UpOptions{})
		if err := ce.eng.Stop(t.Context(), plan.ContainerName(project, "db"), 0); err != nil {
			t.Fatal(err)
		}
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Started, "app": Unchanged})
		more := conformancePlan(project, ce.image, "1", "db", "app", "extra")
		wantActions(t, up(t, r, more, UpOptions{NoStart: true}), map[string]string{"db": Unchanged, "app": Unchanged, "extra": Created})
		wantStates(t, ce.eng, project, map[string]string{"db": "running", "app": "running", "extra": "created"})
		wantActions(t, up(t, r, more, UpOptions{}), map[string]string{"db": Unchanged, "app": Unchanged, "extra": Started})
	}},
	{"recreates a stopped container whose network was removed", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		pl := conformancePlan(project, ce.image, "1", "db")
		up(t, r, pl, UpOptions{})
		if err := ce.eng.Stop(t.Context(), plan.ContainerName(project, "db"), 0); err != nil {
			t.Fatal(err)
		}
		nets, err := r.projectObjects(t.Context(), engine.Networks, project)
		if err != nil || len(nets) != 1 {
			t.Fatalf("networks %+v, %v", nets, err)
		}
		if err := ce.eng.Remove(t.Context(), engine.Networks, nets[0].ID, false); err != nil {
			t.Fatal(err)
		}
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Recreated})
		wantStates(t, ce.eng, project, map[string]string{"db": "running"})
	}},
	{"recreates a container whose image is another one under its name now", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		if ce.retag == nil {
			t.Skip("the fake engine's Compose stand-in (enginetest) does not label containers with their image's id (com.docker.compose.image), so it cannot see an image change")
		}
		ref := project + "-img:1"
		ce.retag(t, ref, 1)
		pl := conformancePlan(project, ref, "1", "db", "app")
		pl.Service("app").Image, pl.Service("app").Container.Image = ce.image, ce.image
		up(t, r, pl, UpOptions{})
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Unchanged, "app": Unchanged})
		ce.retag(t, ref, 2)
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Recreated, "app": Unchanged})
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Unchanged, "app": Unchanged})
		if _, err := r.Down(t.Context(), project, DownOptions{}); err != nil { // before the images go
			t.Fatal(err)
		}
	}},
	{"names orphans and removes them when asked", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		up(t, r, conformancePlan(project, ce.image, "1", "db", "old"), UpOptions{})
		pl := conformancePlan(project, ce.image, "1", "db")
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Unchanged})
		wantActions(t, up(t, r, pl, UpOptions{RemoveOrphans: true}), map[string]string{"db": Unchanged, "old": Removed})
		if n := countContainers(t, ce.eng, project); n != 1 {
			t.Errorf("%d containers after removing the orphan, want 1", n)
		}
	}},
	{"repairs a duplicate network", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		pl := conformancePlan(project, ce.image, "1", "db")
		up(t, r, pl, UpOptions{})
		nets, err := r.projectObjects(t.Context(), engine.Networks, project)
		if err != nil || len(nets) != 1 {
			t.Fatalf("networks %+v, %v", nets, err)
		}
		ce.duplicateNetwork(t, project, nets[0].Labels)
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Unchanged})
		if after, _ := r.projectObjects(t.Context(), engine.Networks, project); len(after) != 1 || after[0].ID != nets[0].ID {
			t.Errorf("networks after the repair: %+v, want only %s", after, nets[0].ID)
		}
	}},
	{"refuses a container it did not make", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		id, err := ce.eng.Create(t.Context(), engine.ContainerSpec{Name: plan.ContainerName(project, "db"), Image: ce.image, Cmd: []string{"sleep", "infinity"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ce.eng.Remove(context.WithoutCancel(t.Context()), engine.Containers, id, false) })
		_, err = r.Up(t.Context(), conformancePlan(project, ce.image, "1", "db"), UpOptions{})
		if err == nil || !strings.Contains(err.Error(), "devenv did not create it") {
			t.Fatalf("up over a foreign container: %v", err)
		}
	}},
	{"stops through Compose, one service or all", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		pl := conformancePlan(project, ce.image, "1", "db", "app")
		up(t, r, pl, UpOptions{})
		rec := record(r)
		ch, err := r.Stop(t.Context(), Selection{Project: project, Services: []string{"app"}, Plan: pl})
		if err != nil {
			t.Fatal(err)
		}
		wantActions(t, ch, map[string]string{"app": Stopped})
		wantStates(t, ce.eng, project, map[string]string{"db": "running", "app": "exited"})
		ch, err = r.Stop(t.Context(), Selection{Project: project, Plan: pl})
		if err != nil {
			t.Fatal(err)
		}
		wantActions(t, ch, map[string]string{"db": Stopped, "app": ""})
		wantStates(t, ce.eng, project, map[string]string{"db": "exited", "app": "exited"})
		rec.want(t, "stop app; stop db") // devenv's own calls stopped nothing
	}},
	{"starts through Compose, only what is stopped", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		pl := conformancePlan(project, ce.image, "1", "db", "app")
		up(t, r, pl, UpOptions{})
		if _, err := r.Stop(t.Context(), Selection{Project: project, Timeout: new(time.Duration), Plan: pl}); err != nil {
			t.Fatal(err)
		}
		rec := record(r)
		ch, err := r.Start(t.Context(), Selection{Project: project, Services: []string{"db"}, Plan: pl})
		if err != nil {
			t.Fatal(err)
		}
		wantActions(t, ch, map[string]string{"db": Started})
		wantStates(t, ce.eng, project, map[string]string{"db": "running", "app": "exited"})
		ch, err = r.Start(t.Context(), Selection{Project: project, Plan: pl})
		if err != nil {
			t.Fatal(err)
		}
		wantActions(t, ch, map[string]string{"db": "", "app": Started})
		wantStates(t, ce.eng, project, map[string]string{"db": "running", "app": "running"})
		rec.want(t, "start db; start app")
		wantActions(t, up(t, r, pl, UpOptions{}), map[string]string{"db": Unchanged, "app": Unchanged})
	}},
	{"removes through Compose, running ones only with --stop", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		pl := conformancePlan(project, ce.image, "1", "db", "app")
		up(t, r, pl, UpOptions{})
		if _, err := r.Stop(t.Context(), Selection{Project: project, Services: []string{"app"}, Timeout: new(time.Duration), Plan: pl}); err != nil {
			t.Fatal(err)
		}
		rec := record(r)
		ch, err := r.Rm(t.Context(), Selection{Project: project, Plan: pl}, false)
		if err != nil {
			t.Fatal(err)
		}
		wantActions(t, ch, map[string]string{"db": Skipped, "app": Removed})
		wantStates(t, ce.eng, project, map[string]string{"db": "running", "app": ""})
		ch, err = r.Rm(t.Context(), Selection{Project: project, Services: []string{"db"}, Timeout: new(time.Duration), Plan: pl}, true)
		if err != nil {
			t.Fatal(err)
		}
		wantActions(t, ch, map[string]string{"db": Removed})
		if n := countContainers(t, ce.eng, project); n != 0 {
			t.Errorf("%d containers after rm --stop", n)
		}
		rec.want(t, "rm app; rm db --stop -t 0s")
	}},
	{"down through Compose takes the orphans, devenv the network", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		up(t, r, conformancePlan(project, ce.image, "1", "db", "app", "old"), UpOptions{})
		r.StopTimeout = new(time.Duration)
		rec := record(r)
		ch, err := r.Down(t.Context(), project, DownOptions{Plan: conformancePlan(project, ce.image, "1", "db", "app")})
		if err != nil {
			t.Fatal(err)
		}
		wantActions(t, ch, map[string]string{"db": Removed, "app": Removed, "old": Removed, "": Removed})
		if n := countContainers(t, ce.eng, project); n != 0 {
			t.Errorf("%d containers after down", n)
		}
		if nets, _ := r.projectObjects(t.Context(), engine.Networks, project); len(nets) != 0 {
			t.Errorf("networks after down: %+v", nets)
		}
		rec.want(t, "down --remove-orphans -t 0s")
	}},
	{"down leaves nothing", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		up(t, r, conformancePlan(project, ce.image, "1", "db", "app"), UpOptions{})
		if _, err := r.Down(t.Context(), project, DownOptions{}); err != nil {
			t.Fatal(err)
		}
		if n := countContainers(t, ce.eng, project); n != 0 {
			t.Errorf("%d containers after down", n)
		}
		if nets, _ := r.projectObjects(t.Context(), engine.Networks, project); len(nets) != 0 {
			t.Errorf("networks after down: %+v", nets)
		}
	}},
}

func TestConformanceOnTheFake(t *testing.T) {
	for _, sc := range conformanceScenarios {
		t.Run(sc.name, func(t *testing.T) {
			f := enginetest.New()
			f.AddImage("conformance:1", nil)
			ce := conformanceEngine{eng: f, image: "conformance:1", duplicateNetwork: func(_ *testing.T, name string, l map[string]string) {
				f.AddNetwork(name, l)
			}}
			sc.run(t, ce, newRunner(t, f), "p")
		})
	}
}

// TestIntegrationConformance runs the same scenarios against the real
// engine, with the e2e tests' Debian stand-in image; before each up of a
// scenario, Compose's own dry run judges devenv's decision (composeJudge).
func TestIntegrationConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the Docker engine (run without -short)")
	}
	eng, err := engine.Connect(t.Context())
	if err != nil {
		t.Skipf("no Docker engine here: %v", err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	const image = "devenv-standin/debian:bookworm"
	if ok, err := eng.ImageExists(t.Context(), image); err != nil || !ok {
		t.Skipf("the stand-in image %s is not on this engine (make e2e builds it): %v", image, err)
	}
	socket := unixSocket()
	for i, sc := range conformanceScenarios {
		t.Run(sc.name, func(t *testing.T) {
			project := fmt.Sprintf("devenvconf%d-%d", time.Now().UnixNano()%1e7, i)
			ce := conformanceEngine{eng: eng, image: image, duplicateNetwork: func(t *testing.T, name string, l map[string]string) {
				if socket == "" {
					t.Skip("DOCKER_HOST is not a unix socket: the duplicate network is made over the socket")
				}
				rawNetworkCreate(t, socket, name, l)
			}, retag: func(t *testing.T, ref string, rev int) { buildRevision(t, eng, image, ref, rev) }}
			out := &ui.Printer{Out: io.Discard, Err: io.Discard}
			x := newComposeJudge(t, eng, sdk.New(engine.EndpointOf(eng), endpoint.Options{}, execview.Render(out)))
			r := &Runner{Eng: eng, Exec: x, Out: out, StateDir: t.TempDir() + "/.devenv"}
			t.Cleanup(func() { cleanupProject(eng, project) })
			sc.run(t, ce, r, project)
		})
	}
}

func conformancePlan(project, image, version string, services ...string) *plan.Plan {
	pl := &plan.Plan{Project: project, Network: project}
	for _, name := range services {
		s := plantest.Service(project, name, image, "h-"+name+"-"+version)
		s.Container.Command = types.ShellCommand{"sleep", "infinity"}
		s.Container.Init = &[]bool{true}[0]
		pl.Services = append(pl.Services, s)
	}
	return pl
}

// up runs Up after its dry run, and fails where the two decide
// differently: what up --dry-run prints is what up does. On the real
// engine Compose's own dry run judges the decision too (composeJudge).
func up(t *testing.T, r *Runner, pl *plan.Plan, opts UpOptions) []Change {
	t.Helper()
	dry := opts
	dry.DryRun = true
	preview, err := r.Up(t.Context(), pl, dry)
	if err != nil {
		t.Fatalf("up --dry-run: %v", err)
	}
	decided := containerDecisions(preview.Changes)
	if j := judgeOf(r); j != nil {
		j.judge(t, r, pl, opts, decided)
	}
	res, err := r.Up(t.Context(), pl, opts)
	if err != nil {
		t.Fatalf("up: %v", err)
	}
	if did := containerDecisions(res.Changes); !maps.Equal(did, decided) {
		t.Errorf("%s: the dry run decided %v, up did %v", upFlags(opts), decided, did)
	}
	return res.Changes
}

// upFlags is opts as the command line says it.
func upFlags(o UpOptions) string {
	out := []string{"up"}
	for flag, on := range map[string]bool{"--force-recreate": o.ForceRecreate, "--no-deps": o.NoDeps, "--no-start": o.NoStart, "--remove-orphans": o.RemoveOrphans} {
		if on {
			out = append(out, flag)
		}
	}
	slices.Sort(out[1:])
	return strings.Join(append(out, o.Services...), " ")
}

func wantActions(t *testing.T, ch []Change, want map[string]string) {
	t.Helper()
	got := actionsOf(ch)
	for s, a := range want {
		if got[s] != a {
			t.Errorf("service %s: %q, want %q (all: %v)", s, got[s], a, got)
		}
	}
}

// recorder notes the executor's lifecycle calls, as the Compose commands
// they stand for.
type recorder struct {
	engine.Executor
	calls []string
}

// record has r's executor recorded from now on.
func record(r *Runner) *recorder {
	rec := &recorder{Executor: r.executor()}
	r.Exec = rec
	return rec
}

func (x *recorder) want(t *testing.T, want string) {
	t.Helper()
	if got := strings.Join(x.calls, "; "); got != want {
		t.Errorf("the executor was asked to %q, want %q", got, want)
	}
}

func (x *recorder) note(verb string, services []string, flags ...string) {
	x.calls = append(x.calls, strings.Join(append([]string{verb, strings.Join(services, ",")}, flags...), " "))
}

func timeoutFlag(d *time.Duration) []string {
	if d == nil {
		return nil
	}
	return []string{"-t", d.String()}
}

func (x *recorder) StopProject(ctx context.Context, stop engine.ProjectStop) error {
	x.note("stop", stop.Services, timeoutFlag(stop.Timeout)...)
	return x.Executor.StopProject(ctx, stop)
}

func (x *recorder) StartProject(ctx context.Context, start engine.ProjectStart) error {
	x.note("start", start.Services)
	return x.Executor.StartProject(ctx, start)
}

func (x *recorder) RemoveProject(ctx context.Context, rm engine.ProjectRemove) error {
	var flags []string
	if rm.Stop {
		flags = append(flags, "--stop")
	}
	x.note("rm", rm.Services, append(flags, timeoutFlag(rm.Timeout)...)...)
	return x.Executor.RemoveProject(ctx, rm)
}

func (x *recorder) DownProject(ctx context.Context, down engine.ProjectDown) error {
	flags := []string{"down"}
	if down.RemoveOrphans {
		flags = append(flags, "--remove-orphans")
	}
	if down.Volumes {
		flags = append(flags, "-v")
	}
	x.calls = append(x.calls, strings.Join(append(flags, timeoutFlag(down.Timeout)...), " "))
	return x.Executor.DownProject(ctx, down)
}

// wantStates checks the state of each service's container.
func wantStates(t *testing.T, eng engine.Engine, project string, want map[string]string) {
	t.Helper()
	objs, err := eng.List(t.Context(), engine.Containers, plan.Labels(project, ""))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range objs {
		got[o.Labels[labels.Service]] = o.State
	}
	for s, st := range want {
		if got[s] != st {
			t.Errorf("service %s: %q, want %q (all: %v)", s, got[s], st, got)
		}
	}
}

func countContainers(t *testing.T, eng engine.Engine, project string) int {
	t.Helper()
	objs, err := eng.List(t.Context(), engine.Containers, plan.Labels(project, ""))
	if err != nil {
		t.Fatal(err)
	}
	return len(objs)
}

func cleanupProject(eng engine.Engine, project string) {
	ctx := context.Background() //nolint:forbidigo // cleanups run after t.Context() ends
	for _, k := range []engine.Kind{engine.Containers, engine.Networks} {
		objs, _ := eng.List(ctx, k, plan.Labels(project, ""))
		for _, o := range objs {
			_ = eng.Remove(ctx, k, o.ID, true)
		}
	}
}

// unixSocket is the engine's unix socket path, or "" for another DOCKER_HOST.
func unixSocket() string {
	host := os.Getenv("DOCKER_HOST")
	if host == "" {
		return "/var/run/docker.sock"
	}
	if p, ok := strings.CutPrefix(host, "unix://"); ok {
		return p
	}
	return ""
}

// rawNetworkCreate creates a network over the Engine API without
// CheckDuplicate (the Docker client always sets it before API 1.44).
func rawNetworkCreate(t *testing.T, socket, name string, l map[string]string) {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", socket)
	}}}
	body, _ := json.Marshal(map[string]any{"Name": name, "Driver": "bridge", "Labels": l, "CheckDuplicate": false})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://docker/v1.41/networks/create", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode == http.StatusConflict {
		t.Skipf("this engine refuses a second network of one name (%s): nothing to repair here", strings.TrimSpace(string(msg)))
	}
	if resp.StatusCode/100 != 2 {
		t.Fatalf("creating a duplicate network: %s %s", resp.Status, msg)
	}
}

// buildRevision builds ref as an image of its own for rev: from, with a
// label saying rev (no layer; another image id). The images go with the
// test.
func buildRevision(t *testing.T, eng engine.Engine, from, ref string, rev int) {
	t.Helper()
	var ctx bytes.Buffer
	tw := tar.NewWriter(&ctx)
	dockerfile := []byte("FROM " + from + "\n")
	if err := tw.WriteHeader(&tar.Header{Name: "Dockerfile", Mode: 0o644, Size: int64(len(dockerfile))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(dockerfile); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	id, err := eng.Build(t.Context(), engine.BuildRequest{Context: &ctx, Tags: []string{ref},
		Labels: map[string]string{"dev.devenv.test.revision": fmt.Sprint(rev), "dev.devenv.test.ref": ref}}, nil)
	if err != nil {
		t.Fatalf("building %s (revision %d): %v", ref, rev, err)
	}
	t.Cleanup(func() { _ = eng.RemoveImage(context.WithoutCancel(t.Context()), id) })
}
