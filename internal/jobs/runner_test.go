package jobs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/filelock"
)

func resourcesFrom(m map[string]Resources) func(context.Context, string) Resources {
	return func(_ context.Context, svc string) Resources {
		if r, ok := m[svc]; ok {
			r.Service = svc
			return r
		}
		return Resources{Service: svc, Unknown: true}
	}
}

type jobSpec struct {
	service string
	cmd     []string
}

func TestRunnerSchedules(t *testing.T) {
	gpu0, gpu1 := Resources{GPUs: []string{"0"}}, Resources{GPUs: []string{"1"}}
	tests := []struct {
		name      string
		resources map[string]Resources
		jobs      []jobSpec
		// mustOverlap and mustNot name pairs of job IDs that have to, or must
		// never, run at the same time.
		mustOverlap [][2]string
		mustNot     [][2]string
		wantOrder   []string // a subsequence of the fake's events
		wantStates  map[string]State
		wantCodes   map[string]int
	}{
		{
			name:       "one service runs its jobs in order, exit codes recorded",
			resources:  map[string]Resources{"spark": gpu0},
			jobs:       []jobSpec{{"spark", []string{"exit", "0"}}, {"spark", []string{"exit", "3"}}, {"spark", []string{"exit", "0"}}},
			mustNot:    [][2]string{{"1", "2"}, {"2", "3"}, {"1", "3"}},
			wantOrder:  []string{"start 1", "end 1", "start 2", "end 2", "start 3", "end 3"},
			wantStates: map[string]State{"1": Done, "2": Failed, "3": Done},
			wantCodes:  map[string]int{"1": 0, "2": 3, "3": 0},
		},
		{
			name:      "services on different GPUs run side by side",
			resources: map[string]Resources{"a": gpu0, "b": gpu1},
			// each holds until both run: a loaded machine may start the
			// second one later than a timed job would last
			jobs:        []jobSpec{{"a", []string{"meet", "2"}}, {"b", []string{"meet", "2"}}},
			mustOverlap: [][2]string{{"1", "2"}},
			wantStates:  map[string]State{"1": Done, "2": Done},
		},
		{
			name:       "services sharing a GPU take turns",
			resources:  map[string]Resources{"a": gpu0, "b": {GPUs: []string{"1", "0"}}},
			jobs:       []jobSpec{{"a", []string{"exit", "0"}}, {"b", []string{"exit", "0"}}, {"a", []string{"exit", "0"}}},
			mustNot:    [][2]string{{"1", "2"}, {"2", "3"}, {"1", "3"}},
			wantOrder:  []string{"end 1", "start 2", "end 2", "start 3"},
			wantStates: map[string]State{"1": Done, "2": Done, "3": Done},
		},
		{
			name:       "a service with all GPUs shares with every GPU service",
			resources:  map[string]Resources{"a": gpu0, "all": {AllGPUs: true}},
			jobs:       []jobSpec{{"a", []string{"exit", "0"}}, {"all", []string{"exit", "0"}}},
			mustNot:    [][2]string{{"1", "2"}},
			wantStates: map[string]State{"1": Done, "2": Done},
		},
		{
			name:       "unknown GPUs count as shared",
			resources:  map[string]Resources{"a": gpu0},
			jobs:       []jobSpec{{"a", []string{"exit", "0"}}, {"mystery", []string{"exit", "0"}}},
			mustNot:    [][2]string{{"1", "2"}},
			wantStates: map[string]State{"1": Done, "2": Done},
		},
		{
			name:      "a later job does not overtake an earlier one it conflicts with",
			resources: map[string]Resources{"a": gpu0, "b": gpu1, "ab": {GPUs: []string{"0", "1"}}},
			// 2 (ab) waits for 1 (a); 3 (b) is free of 1 but must not pass 2.
			jobs:       []jobSpec{{"a", []string{"exit", "0"}}, {"ab", []string{"exit", "0"}}, {"b", []string{"exit", "0"}}},
			mustNot:    [][2]string{{"1", "2"}, {"2", "3"}, {"1", "3"}},
			wantOrder:  []string{"end 1", "start 2", "end 2", "start 3"},
			wantStates: map[string]State{"1": Done, "2": Done, "3": Done},
		},
		{
			name:       "a job that cannot be run fails with the reason and the queue goes on",
			resources:  map[string]Resources{"a": gpu0},
			jobs:       []jobSpec{{"a", []string{"error"}}, {"a", []string{"exit", "0"}}},
			wantStates: map[string]State{"1": Failed, "2": Done},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testStore(t)
			for _, j := range tt.jobs {
				submit(t, s, j.service, j.cmd...)
			}
			fx := newFake(150 * time.Millisecond)
			r := &Runner{Store: s, Exec: fx, Resources: resourcesFrom(tt.resources), Poll: 10 * time.Millisecond}
			if err := r.Run(t.Context()); err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.mustOverlap {
				if !fx.overlapped(p[0], p[1]) {
					t.Errorf("jobs %s and %s did not run at the same time: %v", p[0], p[1], fx.Events())
				}
			}
			for _, p := range tt.mustNot {
				if fx.overlapped(p[0], p[1]) {
					t.Errorf("jobs %s and %s ran at the same time: %v", p[0], p[1], fx.Events())
				}
			}
			if tt.wantOrder != nil && !subsequence(fx.Events(), tt.wantOrder) {
				t.Errorf("events %v, want in this order %v", fx.Events(), tt.wantOrder)
			}
			checkJobs(t, s, tt.wantStates, tt.wantCodes)
		})
	}
}

func checkJobs(t *testing.T, s *Store, states map[string]State, codes map[string]int) {
	t.Helper()
	for id, want := range states {
		j := get(t, s, id)
		if j.State != want {
			t.Errorf("job %s is %s (%s), want %s", id, j.State, j.Reason, want)
		}
		if want.Final() && (j.Started == nil && want != Cancelled || j.Finished == nil) {
			t.Errorf("job %s lacks its times: started %v finished %v", id, j.Started, j.Finished)
		}
		if want == Failed && j.Reason == "" {
			t.Errorf("job %s failed without a reason", id)
		}
	}
	for id, want := range codes {
		if j := get(t, s, id); j.ExitCode == nil || *j.ExitCode != want {
			t.Errorf("job %s exit code %v, want %d", id, j.ExitCode, want)
		}
	}
}

func subsequence(events, want []string) bool {
	i := 0
	for _, e := range events {
		if i < len(want) && e == want[i] {
			i++
		}
	}
	return i == len(want)
}

func TestRunnerWritesJobOutputToItsLog(t *testing.T) {
	s := testStore(t)
	j := submit(t, s, "a", "exit", "0")
	r := &Runner{Store: s, Exec: newFake(0), Poll: 10 * time.Millisecond}
	if err := r.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(j.Log)
	if err != nil || string(b) != "output of job 1\n" {
		t.Fatalf("log %s holds %q (%v)", j.Log, b, err)
	}
}

func TestRunnerRecoversJobsOfADeadRunner(t *testing.T) {
	s := testStore(t)
	orphan := submit(t, s, "a", "exit", "0")
	submit(t, s, "a", "exit", "4")
	if _, err := s.update(orphan.ID, func(j *Job) error {
		j.State, j.RunnerPID, j.Started = Running, 999999, ptr(time.Now())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.alive = func(int) bool { return false }
	fx := newFake(0)
	r := &Runner{Store: s, Exec: fx, Poll: 10 * time.Millisecond}
	if err := r.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	j := get(t, s, "1")
	if j.State != Failed || !strings.Contains(j.Reason, "pid 999999") || !strings.Contains(j.Reason, "ended") {
		t.Errorf("orphan: %s %q", j.State, j.Reason)
	}
	if len(fx.killed) != 1 || fx.killed[0] != "1" {
		t.Errorf("killed %v, want the orphan's process stopped", fx.killed)
	}
	checkJobs(t, s, map[string]State{"2": Failed}, map[string]int{"2": 4})
	if strings.Contains(strings.Join(fx.Events(), ","), "start 1") {
		t.Error("the orphan was run again")
	}
}

func TestRunnerIsExclusive(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "block")
	fx := newFake(0)
	ctx, cancel := context.WithCancel(t.Context())
	first := &Runner{Store: s, Exec: fx, Poll: 10 * time.Millisecond, PID: 4242}
	errc := make(chan error)
	go func() { errc <- first.Run(ctx) }()
	waitFor(t, func() bool { return get(t, s, "1").State == Running })

	second := &Runner{Store: s, Exec: fx, Poll: 10 * time.Millisecond}
	if err := second.Run(t.Context()); !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "pid 4242") {
		t.Fatalf("second runner: %v, want ErrBusy naming pid 4242", err)
	}
	if pid := s.RunnerPID(); pid != 4242 {
		t.Errorf("RunnerPID = %d, want 4242", pid)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted runner returned %v", err)
	}
	if j := get(t, s, "1"); j.State != Failed || !strings.Contains(j.Reason, "interrupted") {
		t.Errorf("job of an interrupted runner: %s %q", j.State, j.Reason)
	}
	if pid := s.RunnerPID(); pid != 0 {
		t.Errorf("RunnerPID after the runner ended = %d, want 0", pid)
	}
}

func TestCancel(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "block")
	submit(t, s, "a", "exit", "0")
	fx := newFake(0)
	r := &Runner{Store: s, Exec: fx, Poll: 10 * time.Millisecond, KillGrace: time.Second}
	errc := make(chan error)
	go func() { errc <- r.Run(t.Context()) }()
	waitFor(t, func() bool { return get(t, s, "1").State == Running })

	if j, err := s.Cancel("2"); err != nil || j.State != Cancelled {
		t.Fatalf("cancel queued: %v %v", j.State, err)
	}
	if j, err := s.Cancel("1"); err != nil || !j.CancelRequested || j.State != Running {
		t.Fatalf("cancel running: %+v %v", j, err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	checkJobs(t, s, map[string]State{"1": Cancelled, "2": Cancelled}, map[string]int{"1": 143})
	if strings.Contains(strings.Join(fx.Events(), ","), "start 2") {
		t.Error("a cancelled queued job ran")
	}
	if _, err := s.Cancel("1"); err == nil || !strings.Contains(err.Error(), "already ended (cancelled)") {
		t.Errorf("cancelling an ended job: %v", err)
	}
	if _, err := s.Cancel("7"); !errors.Is(err, ErrNoJob) {
		t.Errorf("cancelling an unknown job: %v", err)
	}
}

func TestCancelRunningJobOfDeadRunner(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "block")
	if _, err := s.update("1", func(j *Job) error { j.State, j.RunnerPID = Running, 999999; return nil }); err != nil {
		t.Fatal(err)
	}
	s.alive = func(int) bool { return false }
	j, err := s.Cancel("1")
	if err != nil || j.State != Cancelled || j.Finished == nil {
		t.Fatalf("%+v %v", j, err)
	}
}

// cancelWhileRunning runs r, cancels job 1 once it runs and waits, 30 s at
// most, for Run to end without an error; hung says what it means that Run
// did not end.
func cancelWhileRunning(t *testing.T, r *Runner, s *Store, hung string) {
	t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- r.Run(t.Context()) }()
	waitFor(t, func() bool { return get(t, s, "1").State == Running })
	if _, err := s.Cancel("1"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal(hung)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Ctrl-C arriving as a job ends: the next job must not start (under a
// cancelled context, failing though it never ran) and Run must return the
// interruption, not nil (exit 130, not 0). The fake cancels the runner's
// context just before job 1 ends, so both are ready to the runner at once.
func TestRunnerInterruptedAsAJobEnds(t *testing.T) {
	for i := 0; i < 20; i++ { // the runner's choice between the two was random
		s := testStore(t)
		submit(t, s, "a", "exit", "0")
		submit(t, s, "a", "exit", "0")
		ctx, cancel := context.WithCancel(t.Context())
		fx := newFake(0)
		fx.atEnd = func(j Job) {
			if j.ID == "1" {
				cancel()
			}
		}
		r := &Runner{Store: s, Exec: fx, Poll: time.Hour}
		if err := r.Run(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("run %d: Run = %v, want context.Canceled", i, err)
		}
		if slices.Contains(fx.Events(), "start 2") {
			t.Fatalf("run %d: job 2 started after the interrupt: %v", i, fx.Events())
		}
		if j := get(t, s, "2"); j.State != Queued {
			t.Fatalf("run %d: job 2 is %s (%s), want still queued", i, j.State, j.Reason)
		}
	}
}

// A cancel that reaches the executor before the job's process exists is
// repeated until it takes: the job ends killed (143), not after KillGrace
// with no exit code.
func TestCancelBeforeTheProcessExists(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "block")
	fx := newFake(0)
	fx.beforeStart = func(j Job) {
		// Hold the process back until the runner has tried to kill it once.
		for !slices.Contains(fx.killedIDs(), j.ID) {
			time.Sleep(time.Millisecond)
		}
	}
	r := &Runner{Store: s, Exec: fx, Poll: 5 * time.Millisecond, KillGrace: time.Minute}
	cancelWhileRunning(t, r, s, "the job was not killed: the runner waited for KillGrace")
	checkJobs(t, s, map[string]State{"1": Cancelled}, map[string]int{"1": 143})
}

// A job file whose id is not its name (14.4: the runner spun at full CPU,
// deaf to signals) is left out and reported once; the rest of the queue runs.
func TestRunnerSkipsJobFileNamedForAnotherID(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "exit", "0")
	data, err := os.ReadFile(filepath.Join(s.Dir(), "1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir(), "7.json"), data, 0o644); err != nil { // says id "1"
		t.Fatal(err)
	}
	var mu sync.Mutex
	var said []string
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	r := &Runner{Store: s, Exec: newFake(0), Poll: 5 * time.Millisecond, Say: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		said = append(said, fmt.Sprintf(format, args...))
	}}
	if err := r.Run(ctx); err != nil {
		t.Fatalf("Run = %v, want nil once job 1 ran", err)
	}
	checkJobs(t, s, map[string]State{"1": Done}, nil)
	n := 0
	for _, line := range said {
		if strings.Contains(line, "7.json") {
			n++
			if !strings.Contains(line, `says it is job "1"`) {
				t.Errorf("warning %q does not say which id the file holds", line)
			}
		}
	}
	if n != 1 {
		t.Errorf("7.json was reported %d times, want once: %q", n, said)
	}
}

// `devenv jobs` probes runner.lock to say whether a runner is there; a
// runner starting during the probe must wait for it, not give up as busy
// (the e2e test's job then stayed queued for good).
func TestRunnerWaitsOutARunnerPIDProbe(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "exit", "0")
	probe, err := filelock.TryAcquire(filepath.Join(s.Dir(), "runner.lock"), filelock.Options{NoHolder: true})
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(100*time.Millisecond, func() { _ = probe.Release() })
	r := &Runner{Store: s, Exec: newFake(0), Poll: 5 * time.Millisecond}
	if err := r.Run(t.Context()); err != nil {
		t.Fatalf("runner started during a probe: %v", err)
	}
	checkJobs(t, s, map[string]State{"1": Done}, nil)
}
