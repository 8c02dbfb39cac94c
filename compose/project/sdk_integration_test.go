package project

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/lock/locktest"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/endpoint/dockercli"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/docker/compose/v5/pkg/api"
	composesdk "github.com/docker/compose/v5/pkg/compose"
)

// events records what the SDK reports, as devenv's UI would receive it.
type events struct {
	mu  sync.Mutex
	all []api.Resource
}

func (e *events) Start(context.Context, string) {}
func (e *events) Done(string, bool)             {}
func (e *events) On(rs ...api.Resource) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, rs...)
}

func (e *events) texts() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, r := range e.all {
		if r.Status == api.Done {
			out = append(out, r.ID+" "+r.Text)
		}
	}
	return out
}

// TestIntegrationSDKRunsTheRenderedProject is the executor's building
// block on the real engine: the pinned Compose SDK runs the project
// rendered from a plan (devenv made the network first, so it is external),
// the containers carry devenv's labels and Compose's hash of the rendered
// service, the generated file is in the container with its content, and
// diverged (what the SDK left to do) finds nothing after up and exactly
// the changed service after a change.
func TestIntegrationSDKRunsTheRenderedProject(t *testing.T) {
	ctx := t.Context()
	eng, image := standinEngine(t)
	name := fmt.Sprintf("devenvsdk%d", time.Now().UnixNano()%1e8)
	pl := sdkPlan(name, image, "one")
	if _, err := eng.EnsureNetwork(ctx, pl.Network, plan.Labels(name, "")); err != nil {
		t.Fatal(err)
	}
	rec := &events{}
	sdk := newSDK(t, rec)
	t.Cleanup(func() {
		ctx := context.WithoutCancel(ctx)
		_ = sdk.Down(ctx, name, api.DownOptions{})
		objs, _ := eng.List(ctx, engine.Containers, plan.Labels(name, "")) // what the SDK did not see as its own
		for _, o := range objs {
			_ = eng.Remove(ctx, engine.Containers, o.ID, true)
		}
		_ = eng.Remove(ctx, engine.Networks, pl.Network, false)
	})

	proj := renderFor(t, pl)
	if err := sdk.Up(ctx, proj, api.UpOptions{Create: api.CreateOptions{Recreate: api.RecreateDiverged, QuietPull: true},
		Start: api.StartOptions{Project: proj}}); err != nil {
		t.Fatalf("SDK up: %v", err)
	}
	listed := listProject(t, eng, name)
	if len(listed) != 2 {
		t.Fatalf("SDK up made %d containers, want 2: %+v", len(listed), listed)
	}
	for _, c := range listed {
		svc := proj.Services[c.Labels[labels.Service]]
		want, _ := composesdk.ServiceHash(svc)
		if c.Name != svc.ContainerName || c.State != "running" || c.Labels[labels.ComposeConfigHash] != want || c.Labels[labels.Project] != name {
			t.Errorf("container %s: state %s, labels %v; want %s running with hash %s", c.Name, c.State, c.Labels, svc.ContainerName, want)
		}
	}
	var out bytes.Buffer
	if code, err := eng.Exec(ctx, plan.ContainerName(name, "app"), engine.ExecOptions{Cmd: []string{"cat", "/etc/devenv/app.conf"}, Stdout: &out}); err != nil || code != 0 || out.String() != "greeting=one\n" {
		t.Errorf("the generated file in the container: exit %d, %v, %q", code, err, out.String())
	}
	if d, err := diverged(proj, listed, composesdk.ServiceHash); err != nil || len(d) != 0 {
		t.Errorf("right after up Diverged = %v, %v; want nothing to do", d, err)
	}
	// what the fast check saves: the SDK's Up of an unchanged project
	// against one listing and the hashes (figures for the README, not a bound)
	start := time.Now()
	if err := sdk.Up(ctx, proj, api.UpOptions{Create: api.CreateOptions{Recreate: api.RecreateDiverged, QuietPull: true},
		Start: api.StartOptions{Project: proj, Wait: true}}); err != nil {
		t.Fatalf("SDK up of the unchanged project: %v", err)
	}
	sdkNoop := time.Since(start)
	start = time.Now()
	if d, err := diverged(proj, listProject(t, eng, name), composesdk.ServiceHash); err != nil || len(d) != 0 {
		t.Errorf("Diverged after the SDK's no-op up = %v, %v", d, err)
	}
	t.Logf("unchanged project: SDK Up (with wait) %s, list + Diverged %s", sdkNoop, time.Since(start))

	changed := renderFor(t, sdkPlan(name, image, "two"))
	if d, _ := diverged(changed, listed, composesdk.ServiceHash); !slices.Equal(d, []string{"app"}) {
		t.Errorf("after changing app's file Diverged = %v, want [app]", d)
	}
	dbBefore := idOf(listed, plan.ContainerName(name, "db"))
	if err := sdk.Up(ctx, changed, api.UpOptions{Create: api.CreateOptions{Recreate: api.RecreateDiverged, QuietPull: true},
		Start: api.StartOptions{Project: changed}}); err != nil {
		t.Fatalf("SDK up after the change: %v", err)
	}
	out.Reset()
	if _, err := eng.Exec(ctx, plan.ContainerName(name, "app"), engine.ExecOptions{Cmd: []string{"cat", "/etc/devenv/app.conf"}, Stdout: &out}); err != nil || out.String() != "greeting=two\n" {
		t.Errorf("after the change the file is %q (%v), want the new content", out.String(), err)
	}
	if after := idOf(listProject(t, eng, name), plan.ContainerName(name, "db")); after != dbBefore {
		t.Errorf("db was recreated although only app changed (events: %s)", strings.Join(rec.texts(), "; "))
	}
}

func idOf(objs []engine.Object, name string) string {
	for _, o := range objs {
		if o.Name == name {
			return o.ID
		}
	}
	return ""
}

// sdkPlan is two services of the stand-in image; app carries a generated
// file whose content is greeting.
func sdkPlan(project, image, greeting string) *plan.Plan {
	pl := &plan.Plan{Project: project, Network: project}
	for _, name := range []string{"db", "app"} {
		s := plantest.Service(project, name, image, "h-"+name)
		s.Pull, s.Container.PullPolicy = image, ""
		s.Container.Command = types.ShellCommand{"sleep", "infinity"}
		s.Container.Init = &[]bool{true}[0]
		if name == "app" {
			s.Files = []plan.File{{Path: "/etc/devenv/app.conf", Mode: 0o644, Data: []byte("greeting=" + greeting + "\n")}}
			plan.PlaceFiles(&s.Container, s.Files)
		}
		pl.Services = append(pl.Services, s)
	}
	pl.Services[1] = plantest.WithDeps(pl.Services[1], "db")
	return pl
}

func renderFor(t *testing.T, pl *plan.Plan) *types.Project {
	t.Helper()
	proj, err := FromPlan(pl, Options{WorkingDir: t.TempDir(), External: true})
	if err != nil {
		t.Fatal(err)
	}
	return proj
}

// newSDK is the Compose service on the engine the docker CLI would use
// (DOCKER_HOST, contexts), as devenv resolves it, reporting to rec.
func newSDK(t *testing.T, rec api.EventProcessor) api.Compose {
	t.Helper()
	ep, err := endpoint.Resolve(endpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cli, err := dockercli.New(ep, endpoint.Options{}, dockercli.CLIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sdk, err := composesdk.NewComposeService(cli, composesdk.WithEventProcessor(rec))
	if err != nil {
		t.Fatal(err)
	}
	return sdk
}

// standinEngine is the real engine and the e2e tests' Debian stand-in
// image on it; the test skips, saying why, without either.
func standinEngine(t *testing.T) (engine.Engine, string) {
	t.Helper()
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
	return eng, image
}

func listProject(t *testing.T, eng engine.Engine, project string) []engine.Object {
	t.Helper()
	objs, err := eng.List(t.Context(), engine.Containers, plan.Labels(project, ""))
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// TestIntegrationSDKRunsComposeNetworks: a compose file's named networks,
// aliases and anonymous volume, rendered from compose-go's own value, run
// through the SDK on this engine (API 1.41: the SDK connects the networks
// after the first one once the container is created). The networks carry
// devenv's labels, each service is on the project network too, and the
// alias written in the file resolves.
func TestIntegrationSDKRunsComposeNetworks(t *testing.T) {
	ctx := t.Context()
	eng, image := standinEngine(t)
	name := fmt.Sprintf("devenvnet%d", time.Now().UnixNano()%1e8)
	dir := t.TempDir()
	files := map[string]string{
		// devenv.yaml needs a service of its own; it is left out of the run below
		"devenv.yaml": "name: " + name + "\ncompose: [compose.yaml]\nservices:\n  own: {profile: image, image: \"" + image + "\"}\n",
		"compose.yaml": `services:
  api:
    image: ` + image + `
    command: ["sleep", "infinity"]
    init: true
    networks:
      back:
        aliases: [api-alias]
  web:
    image: ` + image + `
    command: ["sleep", "infinity"]
    init: true
    networks: [back, front]
    volumes: ["/scratch"]
networks:
  back: {}
  front:
    labels: {purpose: sdk-test}
`,
	}
	for f, content := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := locktest.Project(t, dir)
	pl, err := plan.Make(p, fakeLock(t, p), cpuHost, plan.Options{StateDir: filepath.Join(dir, ".devenv")})
	if err != nil {
		t.Fatal(err)
	}
	pl.Services = slices.DeleteFunc(pl.Services, func(s *plan.Service) bool { return s.Compose == nil })
	if _, err := eng.EnsureNetwork(ctx, pl.Network, plan.Labels(name, "")); err != nil {
		t.Fatal(err)
	}
	sdk := newSDK(t, &events{})
	t.Cleanup(func() {
		ctx := context.WithoutCancel(ctx)
		_ = sdk.Down(ctx, name, api.DownOptions{Volumes: true})
		for _, kind := range []engine.Kind{engine.Containers, engine.Networks, engine.Volumes} {
			objs, _ := eng.List(ctx, kind, plan.Labels(name, "")) // what the SDK did not see as its own
			for _, o := range objs {
				_ = eng.Remove(ctx, kind, o.ID, true)
			}
		}
	})
	proj, err := FromPlan(pl, Options{WorkingDir: dir, External: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sdk.Up(ctx, proj, api.UpOptions{Create: api.CreateOptions{Recreate: api.RecreateDiverged, QuietPull: true},
		Start: api.StartOptions{Project: proj}}); err != nil {
		t.Fatalf("SDK up: %v", err)
	}
	nets, err := eng.List(ctx, engine.Networks, plan.Labels(name, ""))
	if err != nil {
		t.Fatal(err)
	}
	var netNames []string
	for _, n := range nets {
		netNames = append(netNames, n.Name)
	}
	slices.Sort(netNames)
	if want := []string{name, name + "_back", name + "_front"}; !slices.Equal(netNames, want) {
		t.Errorf("networks with devenv's project label %v, want %v", netNames, want)
	}
	for _, c := range listProject(t, eng, name) {
		var joined []string
		for n := range c.NetworkIDs {
			joined = append(joined, n)
		}
		slices.Sort(joined)
		// each on the networks it names and only those, as with Compose
		want := map[string][]string{"api": {name + "_back"}, "web": {name + "_back", name + "_front"}}[c.Labels[labels.Service]]
		if c.State != "running" || !slices.Equal(joined, want) {
			t.Errorf("container %s: %s on networks %v, want running on %v", c.Name, c.State, joined, want)
		}
	}
	web := plan.ContainerName(name, "web")
	for _, cmd := range [][]string{
		{"getent", "hosts", "api-alias"}, // the alias written for the back network
		{"getent", "hosts", "api"},       // the service name, on the network both name
		{"grep", "-q", " /scratch ", "/proc/mounts"},
	} {
		var out bytes.Buffer
		if code, err := eng.Exec(ctx, web, engine.ExecOptions{Cmd: cmd, Stdout: &out, Stderr: &out}); err != nil || code != 0 {
			t.Errorf("%s in web: exit %d, %v: %s", strings.Join(cmd, " "), code, err, out.String())
		}
	}
}
