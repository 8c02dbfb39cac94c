package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// fakeGo stands in for the go command under make: it records each call,
// fails the unit tier's `go test -short` and the e2e tier's `go test
// ./test/...`, passes every other go test, and
// reads testsum's input as the real testsum would.
const fakeGo = `#!/bin/sh
echo "$*" >> "$CALLS"
case "$1" in
run) cat >/dev/null; exit 0 ;;
list|env) exit 0 ;;
test) for a in "$@"; do [ "$a" = -short ] || [ "$a" = ./test/... ] && exit 1; done; exit 0 ;;
esac
exit 0
`

// TestMakeTestRunsEveryTier: a failing unit test does not hide the other
// tiers. make test runs integration and e2e (beside them) although unit
// fails, exits non-zero, and its summary line names the tiers that failed.
func TestMakeTestRunsEveryTier(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed: this test runs the Makefile's test target")
	}
	dir := t.TempDir()
	goPath, calls := filepath.Join(dir, "go"), filepath.Join(dir, "calls")
	if err := os.WriteFile(goPath, []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	// TESTLOG of its own: the real make test running this test tees its
	// streams into the checkout's bin/testlog.
	c := exec.Command("make", "--no-print-directory", "test", "GO="+goPath, "TESTLOG="+filepath.Join(dir, "testlog"))
	c.Dir = standin.ModuleRoot(t)
	c.Env = append(os.Environ(), "CALLS="+calls)
	out, err := c.CombinedOutput()
	if err == nil {
		t.Fatalf("make test passed with a failing unit tier:\n%s", out)
	}
	b, _ := os.ReadFile(calls)
	log := string(b)
	for _, want := range []string{"-run ^TestIntegration", "./test/..."} {
		if !strings.Contains(log, want) {
			t.Errorf("after the unit tier failed, make test never ran `go test ... %s`; go was called with:\n%s", want, log)
		}
	}
	var summary string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "make test: ") {
			summary = l
		}
	}
	if !strings.Contains(summary, "failed: unit e2e") || strings.Contains(summary, "integration") {
		t.Errorf("make test's summary %q, want it to name the unit and e2e tiers as failed, not integration; it printed:\n%s", summary, out)
	}
}
