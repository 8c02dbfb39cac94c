package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/filelock"
	"github.com/devenv-dev/devenv/internal/jobs"
)

// TestJobEndNoticesOnce: why a job ended is a warning (stderr) of the
// first devenv jobs after it ended, not a line of the table's stdout on
// every call; the job keeps its reason.
func TestJobEndNoticesOnce(t *testing.T) {
	p := New(testProject(t, twoServices), Options{})
	j, _, err := p.Submit(SubmitOptions{Service: "box", Shell: "true", NoRunner: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.CancelJob(j.ID); err != nil {
		t.Fatal(err)
	}
	for call, want := range []int{1, 0, 0} {
		list, warnings, err := p.ListJobs()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, w := range warnings {
			if strings.Contains(w, "job 1 cancelled: cancelled by the user") {
				n++
			}
		}
		if n != want {
			t.Errorf("call %d: %d notices of job 1's end in %q, want %d", call+1, n, warnings, want)
		}
		if len(list) != 1 || list[0].Reason != "cancelled by the user" {
			t.Errorf("call %d: the job lost its reason: %+v", call+1, list)
		}
	}
}

// helperRunnerEnv makes the test binary a stand-in runner (TestHelperRunner).
const helperRunnerEnv = "DEVENV_TEST_HELPER_RUNNER"

// TestSubmitWaitsForItsRunner: submit returns once the runner it started
// holds the queue, so a devenv jobs right after it never says that no
// runner runs; a runner that ends leaving the job queued is submit's
// warning, not a later surprise.
func TestSubmitWaitsForItsRunner(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		warnings []string // parts of submit's one warning; nil: none
	}{
		{"hold", nil},
		{"fail", []string{"is queued, but the runner devenv started ended (exit status 3)", "runner.log"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Setenv(helperRunnerEnv, tc.mode)
			p := New(testProject(t, twoServices), Options{})
			j, warnings, err := p.Submit(SubmitOptions{Service: "box", Shell: "true", Runner: []string{os.Args[0], "-test.run=^TestHelperRunner$"}})
			if err != nil {
				t.Fatal(err)
			}
			store, err := p.Jobs()
			if err != nil {
				t.Fatal(err)
			}
			if pid := store.RunnerPID(); pid != 0 {
				t.Cleanup(func() { stopHelper(t, store, pid) })
			}
			if tc.warnings == nil && len(warnings) > 0 || tc.warnings != nil && len(warnings) != 1 {
				t.Fatalf("submit warned %q, want %s", warnings, map[bool]string{true: "none", false: "one"}[tc.warnings == nil])
			}
			for _, w := range tc.warnings {
				if !strings.Contains(warnings[0], w) || !strings.Contains(warnings[0], "job "+j.ID) {
					t.Errorf("submit's warning %q lacks %q", warnings[0], w)
				}
			}
			_, listed, err := p.ListJobs()
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range listed {
				if tc.mode == "hold" && strings.Contains(w, "no runner is running") {
					t.Errorf("devenv jobs right after submit says %q while the runner holds the queue", w)
				}
			}
		})
	}
}

// stopHelper ends the stand-in runner this test started, by its pid.
func stopHelper(t *testing.T, store *jobs.Store, pid int) {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for store.RunnerPID() == pid && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHelperRunner is not a test: run by TestSubmitWaitsForItsRunner as the
// runner submit starts, it holds the queue as devenv jobs run does (hold)
// or ends at once with an error (fail).
func TestHelperRunner(t *testing.T) {
	mode := os.Getenv(helperRunnerEnv)
	switch mode {
	case "":
		t.Skip("a helper process of TestSubmitWaitsForItsRunner, not a test of its own")
	case "fail":
		fmt.Fprintln(os.Stderr, "devenv: cannot reach the Docker engine")
		os.Exit(3)
	}
	dir, err := os.Getwd()
	if err != nil {
		os.Exit(4)
	}
	l, err := filelock.TryAcquire(filepath.Join(dir, ".devenv", "jobs", "runner.lock"), filelock.Options{PID: os.Getpid(), Command: "devenv jobs run"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(5)
	}
	defer func() { _ = l.Release() }()
	time.Sleep(time.Minute) // until the test stops it; a minute at most
	os.Exit(0)
}
