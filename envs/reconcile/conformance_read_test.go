package reconcile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose/sdk"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/devenv-dev/devenv/internal/view/execview"
)

// The read scenarios (ps, logs, exec) run against the fake engine and,
// in TestIntegrationReadConformance, the Compose SDK on the real engine,
// as the conformance scenarios do: the fake's ProjectReader cannot drift
// from the SDK's Ps, Logs and Exec.

// chatty is the command of the read scenarios' containers: a line on
// stdout, one on stderr, then a last one without a newline, and on
// (chattyExits: then it exits); the fake engine gives chattyLog as their
// logs.
var (
	chatty      = []string{"sh", "-c", "echo one; sleep 0.2; echo two >&2; sleep 0.2; printf partial; exec sleep infinity"}
	chattyExits = []string{"sh", "-c", "echo one; sleep 0.2; echo two >&2; sleep 0.2; printf partial"}
)

const chattyLog = "one\ntwo\npartial"

// readPlan is conformancePlan's services running cmd, app publishing
// port on 127.0.0.1 and carrying a GPU label, db marked as a CPU fallback.
func readPlan(project, image string, port int, cmd []string) *plan.Plan {
	pl := conformancePlan(project, image, "1", "db", "app")
	for _, s := range pl.Services {
		s.Container.Command = cmd
	}
	app := pl.Service("app")
	app.Container.Ports = []types.ServicePortConfig{{Mode: "ingress", HostIP: "127.0.0.1", Published: strconv.Itoa(port), Target: 8080, Protocol: "tcp"}}
	app.Container.Labels[labels.GPUs] = "0"
	pl.Service("db").Container.Labels[labels.CPUFallback] = "true"
	return pl
}

var readScenarios = []struct {
	name string
	run  func(t *testing.T, ce conformanceEngine, r *Runner, project string)
}{
	{"ps lists the project's containers as Compose does, and only devenv's", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		port := freePort(t)
		up(t, r, readPlan(project, ce.image, port, chatty), UpOptions{})
		// a container of the same Compose project that devenv did not make
		foreign, err := ce.eng.Create(t.Context(), engine.ContainerSpec{Name: project + "-foreign", Image: ce.image, Cmd: []string{"sleep", "infinity"},
			Labels: map[string]string{labels.ComposeProject: project, labels.ComposeService: "db", labels.ComposeOneoff: "False", labels.ComposeConfigHash: "x"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ce.eng.Remove(context.WithoutCancel(t.Context()), engine.Containers, foreign, true) })
		stopService(t, ce.eng, project, "db")
		st, err := r.Ps(t.Context(), project)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range st {
			got = append(got, fmt.Sprintf("%s %s %s %s gpus=%q fallback=%v ports=%v hash=%v", s.Service, s.Container, s.State, s.Image,
				s.GPUs, s.CPUFallback, s.Ports, s.ConfigHash != ""))
		}
		want := []string{
			fmt.Sprintf("app %s-app running %s gpus=\"0\" fallback=false ports=[{127.0.0.1 %d 8080 tcp}] hash=true", project, ce.image, port),
			fmt.Sprintf("db %s-db exited %s gpus=\"cpu (fallback)\" fallback=true ports=[] hash=true", project, ce.image),
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("ps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, s := range st {
			if len(s.ID) != 64 {
				t.Errorf("%s: id %q is not the container's full id", s.Service, s.ID)
			}
		}
	}},
	{"logs: each service's lines, one service after the other", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		up(t, r, readPlan(project, ce.image, freePort(t), chattyExits), UpOptions{})
		rd := reader(t, r)
		read := func(o engine.LogOptions) string {
			var b strings.Builder
			err := rd.LogsProject(t.Context(), engine.ProjectLogs{Project: project, Services: []string{"db", "app"}, LogOptions: o,
				Line: func(svc string, line []byte) { b.WriteString(svc + " | " + string(line)) }})
			if err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		// the engine keeps a last line without a newline once the
		// container's output ends (here: it exits), a moment after; then
		// the last two entries are a whole line and that one, which
		// Compose does not print
		const lastTwo = "db | two\napp | two\n"
		var got string
		for deadline := time.Now().Add(30 * time.Second); got != lastTwo && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			got = read(engine.LogOptions{Tail: "2"})
		}
		if got != lastTwo {
			t.Errorf("logs --tail 2:\n%s\nwant:\n%s", got, lastTwo)
		}
		if got, want := read(engine.LogOptions{Tail: "all"}), "db | one\ndb | two\napp | one\napp | two\n"; got != want {
			t.Errorf("logs:\n%s\nwant:\n%s", got, want)
		}
		if got := read(engine.LogOptions{}); !strings.Contains(got, "db | one") {
			t.Errorf("logs without a tail: %s", got)
		}
		var none bytes.Buffer
		if err := rd.LogsProject(t.Context(), engine.ProjectLogs{Project: project, Services: []string{"nothing"},
			Line: func(_ string, line []byte) { none.Write(line) }}); err != nil || none.Len() > 0 {
			t.Errorf("logs of a service without a container: %q, %v", none.String(), err)
		}
	}},
	{"logs -f follows until ctx ends", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		up(t, r, readPlan(project, ce.image, freePort(t), chatty), UpOptions{})
		rd := reader(t, r)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		seen := make(chan string, 16)
		done := make(chan error, 1)
		go func() {
			done <- rd.LogsProject(ctx, engine.ProjectLogs{Project: project, Services: []string{"app"}, LogOptions: engine.LogOptions{Follow: true},
				Line: func(svc string, line []byte) { seen <- svc + " | " + string(line) }})
		}()
		for _, want := range []string{"app | one\n", "app | two\n"} {
			select {
			case got := <-seen:
				if got != want {
					t.Errorf("followed line %q, want %q", got, want)
				}
			case err := <-done:
				t.Fatalf("logs -f ended before its lines: %v", err)
			case <-time.After(30 * time.Second):
				t.Fatalf("logs -f: no %q in 30s", want)
			}
		}
		select {
		case err := <-done:
			t.Fatalf("logs -f of a running service ended by itself: %v", err)
		case <-time.After(300 * time.Millisecond):
		}
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("logs -f ended by its context: %v, want no error", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("logs -f went on 10s after its context ended")
		}
	}},
	{"exec passes output, options and the exit code through", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		up(t, r, readPlan(project, ce.image, freePort(t), chatty), UpOptions{})
		rd := reader(t, r)
		for _, c := range []struct {
			opts engine.ExecOptions
			code int
			out  string
		}{
			{engine.ExecOptions{Cmd: []string{"sh", "-c", "echo from-exec; exit 3"}}, 3, "from-exec\n"},
			{engine.ExecOptions{Cmd: []string{"sh", "-c", "echo $X $(id -u) $(pwd)"}, Env: []string{"X=x1"}, User: "1234", WorkingDir: "/tmp"}, 0, "x1 1234 /tmp\n"},
			{engine.ExecOptions{Cmd: []string{"sh", "-c", "exit 4"}, Detach: true}, 0, ""},
		} {
			var out bytes.Buffer
			c.opts.Stdout, c.opts.Stderr = &out, io.Discard
			if c.opts.Detach {
				c.opts.Stdout, c.opts.Stderr = nil, nil
			}
			code, err := rd.ExecProject(t.Context(), engine.ProjectExec{Project: project, Service: "app", ExecOptions: c.opts})
			if err != nil || code != c.code || out.String() != c.out {
				t.Errorf("exec %q: exit %d, %q, %v; want exit %d, %q", c.opts.Cmd, code, out.String(), err, c.code, c.out)
			}
		}
		stopService(t, ce.eng, project, "db")
		if _, err := rd.ExecProject(t.Context(), engine.ProjectExec{Project: project, Service: "db", ExecOptions: engine.ExecOptions{Cmd: []string{"true"}}}); !errors.Is(err, engine.ErrNotFound) {
			t.Errorf("exec in a stopped service: %v, want ErrNotFound", err)
		}
	}},
	{"exec stops following when ctx ends", func(t *testing.T, ce conformanceEngine, r *Runner, project string) {
		up(t, r, readPlan(project, ce.image, freePort(t), chatty), UpOptions{})
		ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := reader(t, r).ExecProject(ctx, engine.ProjectExec{Project: project, Service: "app",
			ExecOptions: engine.ExecOptions{Cmd: []string{"sleep", "30"}, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("exec past its context: %v, want the context's error", err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("exec took %s to stop after its context ended", d)
		}
	}},
}

func TestReadConformanceOnTheFake(t *testing.T) {
	for _, sc := range readScenarios {
		t.Run(sc.name, func(t *testing.T) {
			f := enginetest.New()
			f.AddImage("conformance:1", nil)
			f.LogOutput = map[string]string{"p-db": chattyLog, "p-app": chattyLog}
			release := make(chan struct{})
			t.Cleanup(func() { close(release) })
			f.ExecFunc = func(o engine.ExecOptions) (int, string) { return fakeShell(o, release) }
			sc.run(t, conformanceEngine{eng: f, image: "conformance:1"}, newRunner(t, f), "p")
		})
	}
}

// fakeShell is what the real engine's shell does with the scenarios'
// commands, for the fake engine (which runs none): "exit N" exits N,
// output is what echo prints, and "sleep" sleeps until the test ends.
func fakeShell(o engine.ExecOptions, release <-chan struct{}) (int, string) {
	script := o.Cmd[len(o.Cmd)-1]
	switch {
	case o.Cmd[0] == "sleep":
		<-release
		return 0, ""
	case strings.Contains(script, "$X"):
		x, _ := strings.CutPrefix(o.Env[slices.IndexFunc(o.Env, func(e string) bool { return strings.HasPrefix(e, "X=") })], "X=")
		return 0, fmt.Sprintf("%s %s %s\n", x, o.User, o.WorkingDir)
	}
	var out string
	if text, ok := strings.CutPrefix(script, "echo "); ok {
		out, _, _ = strings.Cut(text, ";")
		out += "\n"
	}
	var code int
	if _, n, ok := strings.Cut(script, "exit "); ok {
		_, _ = fmt.Sscanf(n, "%d", &code)
	}
	return code, out
}

// TestIntegrationReadConformance runs the read scenarios against the real
// engine, through the Compose SDK, with the e2e tests' Debian stand-in.
func TestIntegrationReadConformance(t *testing.T) {
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
	for i, sc := range readScenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			project := fmt.Sprintf("devenvread%d-%d", time.Now().UnixNano()%1e7, i)
			out := &ui.Printer{Out: io.Discard, Err: io.Discard}
			r := &Runner{Eng: eng, Exec: sdk.New(engine.EndpointOf(eng), endpoint.Options{}, execview.Render(out)), Out: out, StateDir: t.TempDir() + "/.devenv"}
			t.Cleanup(func() { cleanupProject(eng, project) })
			sc.run(t, conformanceEngine{eng: eng, image: image}, r, project)
		})
	}
}

func reader(t *testing.T, r *Runner) engine.ProjectReader {
	t.Helper()
	rd, ok := r.executor().(engine.ProjectReader)
	if !ok {
		t.Fatalf("the executor %T reads no project", r.executor())
	}
	return rd
}

// stopService stops a service's container with the engine, as a crash or
// `docker stop` would.
func stopService(t *testing.T, eng engine.Engine, project, service string) {
	t.Helper()
	if err := eng.Stop(t.Context(), plan.ContainerName(project, service), 0); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s in 30s", what)
		}
	}
}

// freePort is a TCP port free on 127.0.0.1 just now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port
}
