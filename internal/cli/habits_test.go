package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/profiles"
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
	replace(t, &connectEngine, func(context.Context, endpoint.Options) (engine.Engine, error) { return fake, nil })
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
	os.Unsetenv("COMPOSE_PROJECT_NAME")
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
	t.Setenv("COMPOSE_PROFILES", "") // --profile is handed on through the process's environment
	if err := os.WriteFile("compose.yaml", []byte(withDebugProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	relock(t, dir)
	_, errOut, code := runCLI(t, "up")
	if code != 0 || strings.Contains(errOut, "demo-debug") || !strings.Contains(errOut, "orphan containers (demo-old)") {
		t.Errorf("plain up after --profile debug up: exit %d, want demo-old named as the only orphan:\n%s", code, errOut)
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
