package jobs

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"
)

// fakeExec runs jobs in memory: a command "exit N" ends with code N after
// hold; "block" runs until killed or cancelled; "stubborn" too, but only
// SIGKILL (Kill with force) ends it; "error" fails to run. It
// records every start and end and which jobs ran at the same time.
type fakeExec struct {
	hold time.Duration
	// beforeStart, when set, runs as a job is handed to Run, before its
	// process "exists" (so before Kill can reach it).
	beforeStart func(Job)
	// atEnd, when set, runs as an "exit N" job is about to end normally.
	atEnd func(Job)

	mu       sync.Mutex
	events   []string
	running  map[string]bool
	overlaps map[[2]string]bool
	killed   []string
	forced   []string
	kill     map[string]chan struct{}
	together bool // a meet job saw enough jobs running at once
}

func newFake(hold time.Duration) *fakeExec {
	return &fakeExec{hold: hold, running: map[string]bool{}, overlaps: map[[2]string]bool{}, kill: map[string]chan struct{}{}}
}

func (f *fakeExec) begin(id string) chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	for other := range f.running {
		f.overlaps[pair(id, other)] = true
	}
	f.running[id] = true
	f.events = append(f.events, "start "+id)
	k := make(chan struct{})
	f.kill[id] = k
	return k
}

func (f *fakeExec) end(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.running, id)
	f.events = append(f.events, "end "+id)
}

func (f *fakeExec) Run(ctx context.Context, j Job, out io.Writer) (int, error) {
	if j.Command[0] == "error" {
		return -1, fmt.Errorf("the fake cannot run this")
	}
	if f.beforeStart != nil {
		f.beforeStart(j)
	}
	kill := f.begin(j.ID)
	defer f.end(j.ID)
	fmt.Fprintf(out, "output of job %s\n", j.ID)
	if j.Command[0] == "meet" {
		n, _ := strconv.Atoi(j.Command[1])
		return f.meet(ctx, n, kill)
	}
	wait := f.hold
	if j.Command[0] == "block" || j.Command[0] == "stubborn" {
		wait = time.Hour
	}
	select {
	case <-time.After(wait):
	case <-kill:
		if j.Command[0] == "stubborn" {
			return 137, nil
		}
		return 143, nil
	case <-ctx.Done():
		return -1, ctx.Err()
	}
	if f.atEnd != nil {
		f.atEnd(j)
	}
	code, _ := strconv.Atoi(j.Command[len(j.Command)-1])
	return code, nil
}

// meet is the job `meet N`: it holds until N jobs have run at once (then
// every meet job ends with 0), so a test that needs two jobs to overlap does
// not depend on how soon a loaded machine starts the second one. After a
// minute it ends anyway and the test sees no overlap.
func (f *fakeExec) meet(ctx context.Context, n int, kill chan struct{}) (int, error) {
	deadline := time.After(time.Minute)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !f.met(n) {
		select {
		case <-tick.C:
		case <-deadline:
			return 0, nil
		case <-kill:
			return 143, nil
		case <-ctx.Done():
			return -1, ctx.Err()
		}
	}
	return 0, nil
}

func (f *fakeExec) met(n int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.together = f.together || len(f.running) >= n
	return f.together
}

func (f *fakeExec) Kill(ctx context.Context, j Job, force bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.killed = append(f.killed, j.ID)
	if force {
		f.forced = append(f.forced, j.ID)
	}
	if j.Command[0] == "stubborn" && !force {
		return nil // ignores SIGTERM
	}
	if k, ok := f.kill[j.ID]; ok {
		close(k)
		delete(f.kill, j.ID)
	}
	return nil
}

func (f *fakeExec) killedIDs() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.killed...)
}

func (f *fakeExec) Events() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.events...)
}

func (f *fakeExec) overlapped(a, b string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.overlaps[pair(a, b)]
}

func pair(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// testStore is a store in a temporary directory with a fixed clock.
func testStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	n := 0
	s.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		n++
		return base.Add(time.Duration(n) * time.Second)
	}
	return s
}

func submit(t *testing.T, s *Store, service string, cmd ...string) Job {
	t.Helper()
	j, err := s.Submit(Job{Service: service, Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func get(t *testing.T, s *Store, id string) Job {
	t.Helper()
	j, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}
