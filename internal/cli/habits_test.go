package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/urfave/cli/v2"
)

// fakeEngine makes the CLI talk to a fake engine that has twoPlain's
// images.
func fakeEngine(t *testing.T) *enginetest.Fake {
	t.Helper()
	noGPUMachine(t)
	t.Setenv("DEVENV_CACHE", t.TempDir())
	fake := enginetest.New()
	fake.AddImage("postgres:16", nil)
	fake.AddImage("busybox:1", nil)
	replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return fake, nil })
	return fake
}

// mustRun runs devenv and fails the test on a non-zero exit.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("devenv %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// TestProjectNameIsNoLockInput: as with Compose, -p and
// COMPOSE_PROJECT_NAME are run-time names (containers, network,
// volumes): an up under another name leaves devenv.lock as it is, so
// `lock --check` stays 0 and `-p X up --frozen` works on a current lock.
// A lock written before (it holds devenv.yaml's name) still verifies.
func TestProjectNameIsNoLockInput(t *testing.T) {
	project(t, twoPlain, true)
	fakeEngine(t)
	before, err := os.ReadFile("devenv.lock")
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, "-p", "other", "up")
	mustRun(t, "up", "--frozen", "-p", "other")
	t.Setenv("COMPOSE_PROJECT_NAME", "third")
	mustRun(t, "up", "--frozen")
	if got := mustRun(t, "ps", "--format", "{{.Name}}"); got != "third-app\nthird-db\n" {
		t.Errorf("ps under COMPOSE_PROJECT_NAME=third: %q", got)
	}
	if got := mustRun(t, "-p", "other", "ps", "--format", "{{.Name}}"); got != "other-app\nother-db\n" {
		t.Errorf("-p wins over COMPOSE_PROJECT_NAME: %q", got)
	}
	t.Setenv("COMPOSE_PROJECT_NAME", "") // unset: devenv.yaml's name
	mustRun(t, "lock", "--check")
	after, err := os.ReadFile("devenv.lock")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("-p other up rewrote devenv.lock:\n%s\nwas:\n%s", after, before)
	}
	t.Setenv("COMPOSE_PROJECT_NAME", "Bad Name")
	if _, errOut, code := runCLI(t, "ps"); code != 2 || !strings.Contains(errOut, "COMPOSE_PROJECT_NAME") {
		t.Errorf("COMPOSE_PROJECT_NAME='Bad Name': exit %d: %s", code, errOut)
	}
}

// projectWith is project with its files (devenv.yaml, compose files),
// locked with fake pins.
func projectWith(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	relock(t, dir)
	return dir
}

// relock writes dir's devenv.lock again with fake pins.
func relock(t *testing.T, dir string) {
	t.Helper()
	p, err := spec.Load(filepath.Join(dir, "devenv.yaml"))
	if err == nil {
		var f *lock.File
		f, err = lock.Generate(t.Context(), p, nil, profiles.Builtin(), fakePinner{}, fakeFetcher{}, lock.Options{POMs: noPOMs{}})
		if err == nil {
			_, err = lock.Write(filepath.Join(dir, "devenv.lock"), f)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

const withDebugProfile = `services:
  db:
    image: postgres:16
  debug:
    image: busybox:1
    profiles: [debug]
`

// TestProfileServicesAreNoOrphans: as with Compose, the container of a
// service whose compose profile is not enabled now is the project's, not
// an orphan: a plain up after `--profile debug up` neither warns about it
// nor removes it with --remove-orphans. A container whose service is gone
// is an orphan, and --remove-orphans says it removed it, one line each.
func TestProfileServicesAreNoOrphans(t *testing.T) {
	dir := projectWith(t, map[string]string{"devenv.yaml": "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: busybox:1\n", "compose.yaml": withDebugProfile + "  old:\n    image: busybox:1\n"})
	fakeEngine(t)
	mustRun(t, "--profile", "debug", "up")
	if err := os.WriteFile("compose.yaml", []byte(withDebugProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	relock(t, dir)
	_, errOut, code := runCLI(t, "up")
	if code != 0 || strings.Contains(errOut, "demo-debug") || !strings.Contains(errOut, "orphan containers (demo-old)") {
		t.Errorf("plain up after --profile debug up: exit %d, want demo-old named as the only orphan:\n%s", code, errOut)
	}
	if got := mustRun(t, "ps", "--orphans=false", "--format", "{{.Name}}"); got != "demo-app\ndemo-db\ndemo-debug\n" {
		t.Errorf("ps --orphans=false: %q, want demo-old left out", got)
	}
	out := mustRun(t, "up", "--remove-orphans")
	if !strings.Contains(out, "removed orphan container demo-old (service old)\n") || strings.Contains(out, "demo-debug") {
		t.Errorf("up --remove-orphans does not say what it removed, or removed the profile's container:\n%s", out)
	}
	if got := mustRun(t, "ps", "--format", "{{.Name}}"); got != "demo-app\ndemo-db\ndemo-debug\n" {
		t.Errorf("containers after up --remove-orphans: %q", got)
	}
}

// TestExecOnStoppedServiceSaysStart: exec on a service whose container
// was stopped says to start it (devenv start, as Compose's hint), and on
// one that has no container to bring it up.
func TestExecOnStoppedServiceSaysStart(t *testing.T) {
	project(t, twoPlain, true)
	fakeEngine(t)
	if _, errOut, code := runCLI(t, "exec", "app", "--", "true"); code != 1 || !strings.Contains(errOut, "run devenv up app") {
		t.Errorf("exec before up: exit %d: %s", code, errOut)
	}
	mustRun(t, "up")
	mustRun(t, "stop", "app")
	_, errOut, code := runCLI(t, "exec", "app", "--", "true")
	if code != 1 || !strings.Contains(errOut, "run devenv start app") || strings.Contains(errOut, "devenv up") {
		t.Errorf("exec on a stopped service: exit %d: %s", code, errOut)
	}
}

const withVolume = `name: demo
compose: [compose.yaml]
services:
  app:
    profile: image
    image: busybox:1
    depends_on: [db]
`

const composeWithVolume = `services:
  db:
    image: postgres:16
    volumes: [data:/var/lib/postgresql/data]
  debug:
    image: busybox:1
    profiles: [debug]
volumes:
  data: {}
`

// volumesOf are the engine's volumes labelled for project demo.
func volumesOf(t *testing.T, fake *enginetest.Fake) int {
	t.Helper()
	vols, err := fake.List(t.Context(), engine.Volumes, map[string]string{labels.Project: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	return len(vols)
}

// TestDownV: as with Compose, down -v is --volumes (the project's named
// volumes go); --verbose is spelled out after a command name, and -v
// before it is still --verbose.
func TestDownV(t *testing.T) {
	projectWith(t, map[string]string{"devenv.yaml": withVolume, "compose.yaml": composeWithVolume})
	fake := fakeEngine(t)
	mustRun(t, "up")
	if volumesOf(t, fake) != 1 {
		t.Fatalf("up made %d volumes, want demo_data", volumesOf(t, fake))
	}
	mustRun(t, "-v", "down")
	if volumesOf(t, fake) != 1 {
		t.Fatal("devenv -v down (verbose) removed the volume")
	}
	mustRun(t, "up")
	mustRun(t, "down", "-v")
	if n := volumesOf(t, fake); n != 0 {
		t.Errorf("down -v left %d volume(s)", n)
	}
}

// TestPsAllAndStatus: ps -a is accepted (devenv's ps lists stopped
// containers too, as Compose's ps -a); --status and --filter status=
// keep the containers in that state, as Compose's; a state that is none
// is refused with the states.
func TestPsAllAndStatus(t *testing.T) {
	project(t, twoPlain, true)
	fakeEngine(t)
	mustRun(t, "up")
	mustRun(t, "stop", "app")
	for args, want := range map[string]string{
		"ps -a":                               "demo-app exited\ndemo-db running\n",
		"ps --all":                            "demo-app exited\ndemo-db running\n",
		"ps --status exited":                  "demo-app exited\n",
		"ps --filter status=running":          "demo-db running\n",
		"ps --status running --status exited": "demo-app exited\ndemo-db running\n",
	} {
		if got := mustRun(t, append(strings.Fields(args), "--format", "{{.Name}} {{.State}}")...); got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
	if _, errOut, code := runCLI(t, "ps", "--status", "stopped"); code != 2 || !strings.Contains(errOut, `"stopped" is not a container state`) {
		t.Errorf("ps --status stopped: exit %d: %s", code, errOut)
	}
}

// TestConfigServices: config --services prints the services up runs,
// one a line, each after what it depends on, as docker compose config
// --services: a compose profile's service only with the profile on.
func TestConfigServices(t *testing.T) {
	projectWith(t, map[string]string{"devenv.yaml": withVolume, "compose.yaml": composeWithVolume})
	t.Setenv("COMPOSE_PROFILES", "")
	if got := mustRun(t, "config", "--services"); got != "db\napp\n" {
		t.Errorf("config --services: %q", got)
	}
	if got := mustRun(t, "--profile", "debug", "config", "--services"); got != "db\ndebug\napp\n" {
		t.Errorf("--profile debug config --services: %q", got)
	}
	if got := mustRun(t, "config", "-q"); got != "" {
		t.Errorf("config -q printed %q", got)
	}
}

// stopTimeouts records the stop timeout each Compose run of the project
// is given.
type stopTimeouts struct {
	*enginetest.Fake
	got []time.Duration
}

func (s *stopTimeouts) RunProject(ctx context.Context, run engine.ProjectRun) (engine.Decisions, error) {
	s.got = append(s.got, run.StopTimeout)
	return s.Fake.RunProject(ctx, run)
}

// TestUpComposeFlags: up -t N gives a container being recreated N
// seconds to stop (Compose's up -t); --wait-timeout takes seconds as
// Compose writes it; --build is accepted (up builds what changed anyway)
// and refused with --no-build; down --rmi local is devenv's --rmi, all is
// refused with the reason; exec -it is exec.
func TestUpComposeFlags(t *testing.T) {
	project(t, twoPlain, true)
	spy := &stopTimeouts{Fake: fakeEngine(t)}
	replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return spy, nil })
	mustRun(t, "up", "--build", "--wait-timeout", "60")
	spy.got = nil
	mustRun(t, "up", "--force-recreate", "-t", "3")
	mustRun(t, "up", "--force-recreate")
	if len(spy.got) != 2 || spy.got[0] != 3*time.Second || spy.got[1] != 10*time.Second {
		t.Errorf("stop timeouts of up -t 3 then up: %v, want [3s 10s]", spy.got)
	}
	mustRun(t, "exec", "-it", "app", "--", "true")
	for _, tt := range []struct {
		args   []string
		errHas string
	}{
		{[]string{"up", "--build", "--no-build"}, "--build and --no-build cannot go together"},
		{[]string{"up", "--wait-timeout", "soon"}, `--wait-timeout "soon": give seconds`},
		{[]string{"down", "--rmi", "all"}, "--rmi all: devenv removes only the images it built"},
	} {
		if _, errOut, code := runCLI(t, tt.args...); code != 2 || !strings.Contains(errOut, tt.errHas) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, want 2 and %q in one line:\n%s", tt.args, code, tt.errHas, errOut)
		}
	}
	mustRun(t, "down", "--rmi", "local")
	mustRun(t, "up")
	mustRun(t, "down", "--rmi")
}

// TestFlagHelpPlaceholders: urfave/cli takes the first `quoted` words of a
// flag's usage for its value's placeholder, so a boolean flag's usage must
// quote nothing (watch --detach once rendered as "--detach devenv watch
// --stop, -d devenv watch --stop") and any other's placeholder is one word.
func TestFlagHelpPlaceholders(t *testing.T) {
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			for _, f := range c.Flags {
				df, ok := f.(cli.DocGenerationFlag)
				if !ok {
					continue
				}
				name, _ := unquoteUsage(df.GetUsage())
				_, isBool := f.(*cli.BoolFlag)
				if (isBool && name != "") || strings.ContainsAny(name, " \t") {
					t.Errorf("devenv %s%s --%s renders as %q: quote a single placeholder word, or none for a boolean", prefix, c.Name, f.Names()[0], cli.FlagStringer(f))
				}
			}
			walk(prefix+c.Name+" ", c.Subcommands)
		}
	}
	app := newApp(Streams{})
	walk("", app.Commands)
}

// unquoteUsage is urfave/cli's reading of a usage: the first `quoted`
// words are the placeholder.
func unquoteUsage(usage string) (string, string) {
	for i := 0; i < len(usage); i++ {
		if usage[i] == '`' {
			for j := i + 1; j < len(usage); j++ {
				if usage[j] == '`' {
					return usage[i+1 : j], usage[:i] + usage[i+1:j] + usage[j+1:]
				}
			}
			break
		}
	}
	return "", usage
}

// TestCompletion: devenv answers the shells' completion: init --profile
// completes the starters' profiles, mirror --format the formats, and a
// word that is a path (mirror SOURCE, submit FILE, logs --tail's value)
// nothing, so the shell offers files; "-" the command's flags, and a
// service argument the project's services.
func TestCompletion(t *testing.T) {
	project(t, twoPlain, true)
	for _, tt := range []struct {
		words []string
		want  string
	}{
		{[]string{"init", "--profile"}, "spark-rapids\nrapids\ntriton\nimage\n"},
		{[]string{"mirror", "--format"}, strings.Join(mirror.Formats, "\n") + "\n"},
		{[]string{"mirror"}, ""},
		{[]string{"mirror", "--service"}, "db\napp\n"},
		{[]string{"submit"}, ""},
		{[]string{"logs", "--tail"}, ""},
		{[]string{"stop"}, "db\napp\n"},
		{[]string{"stop", "db"}, "app\n"},
	} {
		replace(t, &os.Args, append([]string{"devenv"}, append(tt.words, completeFlag)...)) // urfave/cli reads them there
		out, errOut, code := runCLI(t, append(tt.words, completeFlag)...)
		if code != 0 || out != tt.want {
			t.Errorf("devenv %s <TAB>: exit %d, %q, want %q %s", strings.Join(tt.words, " "), code, out, tt.want, errOut)
		}
	}
	replace(t, &os.Args, []string{"devenv", "init", "-", completeFlag})
	if out, _, _ := runCLI(t, "init", "-", completeFlag); !strings.Contains(out, "--profile\n") {
		t.Errorf("devenv init -<TAB>: %q", out)
	}
}

// TestCpArguments: cp reads its words as docker cp does (SERVICE:PATH
// is a container's path unless it starts with / or .), and refuses in one
// line what docker cp's rules do not make a copy of this kind.
func TestCpArguments(t *testing.T) {
	project(t, twoPlain, true)
	fakeEngine(t)
	for _, tt := range []struct {
		args   []string
		errHas string
	}{
		{[]string{"cp", "app:/f"}, "usage: devenv cp SERVICE:SRC DEST, or devenv cp SRC SERVICE:DEST"},
		{[]string{"cp", "app:/f", "db:/g"}, "not between two containers"},
		{[]string{"cp", "./a:b", "/tmp/x"}, "usage: devenv cp"},
		{[]string{"cp", "app:/f", "-"}, "not docker cp's tar stream"},
		{[]string{"cp", "nope:/f", "."}, `no service "nope"`},
	} {
		_, errOut, code := runCLI(t, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.errHas) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("devenv %s: exit %d, want 2 and %q in one line:\n%s", strings.Join(tt.args, " "), code, tt.errHas, errOut)
		}
	}
}
