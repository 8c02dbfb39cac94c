package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
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
