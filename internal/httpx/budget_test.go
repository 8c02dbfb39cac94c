package httpx

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestBudgetBoundsRetriesAndRequests: with a server that accepts and never
// answers, every attempt, backoff and request of one client draws on one
// budget, so ten requests of three attempts each give up in about the
// budget, not 10 x 3 x the header limit; later requests fail at once,
// naming the server.
func TestBudgetBoundsRetriesAndRequests(t *testing.T) {
	hole, _ := blackhole(t)
	budget := NewBudget(600 * time.Millisecond)
	l := Limits{Connect: time.Second, Header: 250 * time.Millisecond, Idle: 250 * time.Millisecond, Attempts: 3, Backoff: 50 * time.Millisecond, Budget: budget}
	c := Client(l)
	start := time.Now()
	for i := 0; i < 10; i++ {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://"+hole+"/maven2/x.jar", nil)
		resp, err := c.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			t.Fatal("a server that never answers answered")
		}
		var stall *StallError
		if !errors.As(err, &stall) || !strings.Contains(err.Error(), hole) {
			t.Fatalf("request %d: %v, want a stall naming %s", i, err, hole)
		}
		if i > 0 && !stall.Budget {
			t.Errorf("request %d waited again after the budget was spent: %v", i, err)
		}
	}
	// Without the budget: 10 requests x (3 x 250ms + 50ms + 100ms) = 9 s.
	if d := time.Since(start); d > budget.Total()+300*time.Millisecond {
		t.Errorf("ten requests to a stalled server took %s, want about the budget %s", d, budget.Total())
	}
}

// TestBudgetCutsTheWaitItself: a per-wait limit longer than the budget is
// cut at what is left of the budget.
func TestBudgetCutsTheWaitItself(t *testing.T) {
	hole, _ := blackhole(t)
	l := Limits{Connect: time.Second, Header: 3 * time.Second, Idle: 3 * time.Second, Attempts: 3, Backoff: 10 * time.Millisecond, Budget: NewBudget(300 * time.Millisecond)}
	start := time.Now()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodHead, "http://"+hole+"/v2/", nil)
	resp, err := Client(l).Do(req)
	if err == nil {
		_ = resp.Body.Close()
	}
	if d := time.Since(start); err == nil || d > 600*time.Millisecond {
		t.Fatalf("HEAD to a stalled server: %v after %s, want a stall within the 300ms budget", err, d)
	}
}

// TestBudgetSparesABodyThatIsSending: once the budget is spent on a
// stalled server, a download from a server that keeps sending still
// completes.
func TestBudgetSparesABodyThatIsSending(t *testing.T) {
	hole, _ := blackhole(t)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 5; i++ {
			_, _ = io.WriteString(w, "chunk")
			w.(http.Flusher).Flush()
			time.Sleep(100 * time.Millisecond)
		}
	}))
	defer slow.Close()
	l := Limits{Connect: time.Second, Header: 200 * time.Millisecond, Idle: 2 * time.Second, Attempts: 1, Budget: NewBudget(200 * time.Millisecond)}
	c := Client(l)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://"+hole+"/", nil)
	if resp, err := c.Do(req); err == nil {
		_ = resp.Body.Close()
		t.Fatal("the stalled server answered")
	}
	budget := l.Budget
	budget.mu.Lock()
	budget.spent = budget.total / 2 // some left, less than the idle limit
	budget.mu.Unlock()
	req, _ = http.NewRequestWithContext(t.Context(), http.MethodGet, slow.URL, nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil || string(data) != strings.Repeat("chunk", 5) {
		t.Fatalf("a sending server's body: %q, %v", data, err)
	}
}

// TestDefaultBudgetIsUnder90s: the budget every command's clients share
// keeps `lock` against stalled servers under 90 s in all, whatever the
// per-wait limits; DEVENV_NET_BUDGET changes it.
func TestDefaultBudgetIsUnder90s(t *testing.T) {
	l := DefaultLimits()
	if l.Budget == nil || l.Budget.Total() != DefaultBudget {
		t.Fatalf("DefaultLimits().Budget = %v, want the process budget of %s", l.Budget, DefaultBudget)
	}
	if worst := l.Budget.Total() + l.Connect/2; worst >= 90*time.Second {
		t.Errorf("budget %s leaves no room under 90 s", l.Budget.Total())
	}
	if DefaultLimits().Budget != l.Budget {
		t.Error("two DefaultLimits do not share one budget: each client would wait the whole budget again")
	}
}
