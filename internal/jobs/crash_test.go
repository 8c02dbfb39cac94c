//go:build !windows

package jobs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as a runner process that the crash
// test kills.
func TestMain(m *testing.M) {
	if dir := os.Getenv("DEVENV_JOBS_TEST_RUNNER"); dir != "" {
		s, err := Open(dir)
		if err == nil {
			err = (&Runner{Store: s, Exec: newFake(time.Hour), Poll: 10 * time.Millisecond}).Run(context.Background())
		}
		if err != nil {
			fmt.Fprint(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestRunnerKilledMidQueue kills a real runner process with SIGKILL while
// it runs a job: its lock goes with it, the next runner marks that job
// failed naming the dead pid, and runs the rest of the queue.
func TestRunnerKilledMidQueue(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "exit", "0")
	submit(t, s, "a", "exit", "5")
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), "DEVENV_JOBS_TEST_RUNNER="+s.Dir())
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return get(t, s, "1").State == Running })
	if err := (&Runner{Store: s, Exec: newFake(0)}).Run(t.Context()); err == nil || !strings.Contains(err.Error(), strconv.Itoa(child.Process.Pid)) {
		t.Fatalf("a second runner next to a live one: %v", err)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()

	fx := newFake(0)
	if err := (&Runner{Store: s, Exec: fx, Poll: 10 * time.Millisecond}).Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	j := get(t, s, "1")
	if j.State != Failed || !strings.Contains(j.Reason, "pid "+strconv.Itoa(child.Process.Pid)+") ended") {
		t.Errorf("job of the killed runner: %s %q", j.State, j.Reason)
	}
	checkJobs(t, s, map[string]State{"2": Failed}, map[string]int{"2": 5})
}
