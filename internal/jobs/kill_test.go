package jobs

import (
	"strings"
	"testing"
	"time"
)

// A cancelled job that ignores SIGTERM is killed with SIGKILL after
// KillGrace, and its record says so.
func TestCancelEscalatesToSIGKILL(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "stubborn")
	fx := newFake(0)
	r := &Runner{Store: s, Exec: fx, Poll: 5 * time.Millisecond, KillGrace: 50 * time.Millisecond}
	cancelWhileRunning(t, r, s, "a job that ignores SIGTERM was never killed")
	checkJobs(t, s, map[string]State{"1": Cancelled}, map[string]int{"1": 137})
	if j := get(t, s, "1"); !strings.Contains(j.Reason, "SIGKILL") || !strings.Contains(j.Reason, "cancelled by the user") {
		t.Errorf("reason %q does not say it was cancelled and then killed", j.Reason)
	}
}

// A job killed by a signal nobody in devenv sent (its container stopped or
// recreated, the OOM killer) records which signal and what usually sends it.
func TestKilledJobRecordsWhy(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "exit", "137")
	submit(t, s, "b", "exit", "143")
	submit(t, s, "c", "exit", "3")
	r := &Runner{Store: s, Exec: newFake(0), Poll: 5 * time.Millisecond}
	if err := r.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"1": "killed by SIGKILL (exit code 137): its container was stopped, recreated", "2": "killed by SIGTERM", "3": "exited with code 3"} {
		if j := get(t, s, id); j.State != Failed || !strings.Contains(j.Reason, want) {
			t.Errorf("job %s: %s %q, want failed with %q", id, j.State, j.Reason, want)
		}
	}
}
