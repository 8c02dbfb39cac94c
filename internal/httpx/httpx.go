// Package httpx is the HTTP client devenv uses toward mirrors, registries and
// artifact servers: it never waits forever. Connecting, the response headers
// and every read of a body each have a limit, idempotent requests are retried
// with backoff, and a failure names the server that stalled. All the waiting
// on servers that do not answer (every attempt, retry and backoff of every
// request) draws on one Budget, so retries, download restarts and several
// stalled servers cannot multiply the wait.
package httpx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Limits are how long devenv waits for a server.
type Limits struct {
	Connect  time.Duration // to open a connection (and finish TLS)
	Header   time.Duration // for response headers once the request is sent
	Idle     time.Duration // between two reads of a response body
	Attempts int           // tries of an idempotent request
	Backoff  time.Duration // before the second try; doubled each time
	// Budget is the time that may be spent waiting on servers that do
	// not answer, shared by every request made with these limits; nil
	// means no overall bound (each wait still has its own limit).
	Budget *Budget
}

// DefaultBudget is how long one devenv command waits in all on servers
// that stall (accept and never answer, or stop sending) unless
// DEVENV_NET_BUDGET says otherwise: under 90 s, so `lock` against a
// stalled mirror fails inside a minute and a half, retries included.
const DefaultBudget = 80 * time.Second

// processBudget is the budget of this process (one devenv command): every
// client made from DefaultLimits draws on it.
var processBudget = sync.OnceValue(func() *Budget {
	d := DefaultBudget
	if v, err := time.ParseDuration(os.Getenv("DEVENV_NET_BUDGET")); err == nil && v > 0 {
		d = v
	}
	return NewBudget(d)
})

// DefaultLimits are used unless DEVENV_NET_TIMEOUT (a Go duration such as
// "30s") sets Header and Idle; they share the process's Budget.
func DefaultLimits() Limits {
	l := Limits{Connect: 15 * time.Second, Header: 60 * time.Second, Idle: 60 * time.Second, Attempts: 3, Backoff: time.Second,
		Budget: processBudget()}
	if d, err := time.ParseDuration(os.Getenv("DEVENV_NET_TIMEOUT")); err == nil && d > 0 {
		l.Header, l.Idle = d, d
		if d < l.Connect {
			l.Connect = d
		}
	}
	return l
}

// Budget is a store of waiting time on stalled servers. A wait that ends
// in a stall, and the backoff after it, are spent from it; a wait is never
// given more than what is left, and once it is spent a new request fails
// at once, naming the server that used it up. Safe for concurrent use
// (waits that overlap are each spent, so it errs on the short side).
type Budget struct {
	mu    sync.Mutex
	total time.Duration
	spent time.Duration
	host  string // the server whose stall spent the last of it
}

// NewBudget returns a budget of d.
func NewBudget(d time.Duration) *Budget { return &Budget{total: d} }

// Total is the budget's size.
func (b *Budget) Total() time.Duration {
	if b == nil {
		return 0
	}
	return b.total
}

// left is what remains, or a very long time for a nil budget.
func (b *Budget) left() time.Duration {
	if b == nil {
		return time.Duration(1<<63 - 1)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total - b.spent
}

func (b *Budget) spend(d time.Duration, host string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.spent += d
	b.host = host
}

// exhausted is the error of a request made after the budget is spent.
func (b *Budget) exhausted(host string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return &StallError{Host: host, What: "answer", After: b.spent, Budget: true, Spender: b.host}
}

// StallError says a server accepted a request and then stopped answering.
type StallError struct {
	Host  string
	What  string // "answer", "send data"
	After time.Duration
	// Budget is set when the request was not sent (or given up) because
	// the command's waiting budget was spent; Spender is the server whose
	// stall spent its last part.
	Budget  bool
	Spender string
}

func (e *StallError) Error() string {
	if e.Budget {
		by := ""
		if e.Spender != "" && e.Spender != e.Host {
			by = " (the last of it on " + e.Spender + ")"
		}
		return fmt.Sprintf("%s was not asked: devenv already waited %s in all on servers that did not answer%s; check them (or the mirrors in devenv.yaml `mirrors:`), or raise DEVENV_NET_BUDGET", e.Host, e.After.Round(time.Millisecond), by)
	}
	return fmt.Sprintf("%s did not %s for %s; check that server (or the mirror in devenv.yaml `mirrors:`), or raise DEVENV_NET_TIMEOUT", e.Host, e.What, e.After.Round(time.Millisecond))
}

// Timeout marks a stall as a timeout for net.Error users.
func (e *StallError) Timeout() bool { return true }

// Client returns an http.Client with limits l.
func Client(l Limits) *http.Client {
	return &http.Client{Transport: Transport(l)}
}

// Transport returns a RoundTripper with limits l.
func Transport(l Limits) http.RoundTripper {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.DialContext = (&net.Dialer{Timeout: l.Connect, KeepAlive: 30 * time.Second}).DialContext
	base.TLSHandshakeTimeout = l.Connect
	base.ResponseHeaderTimeout = l.Header
	return &transport{base: base, l: l}
}

type transport struct {
	base http.RoundTripper
	l    Limits
}

// RoundTrip sends req, retrying idempotent requests without a body that
// failed before an answer or got 502, 503 or 504; the body of the response
// it returns fails a read that waits longer than the idle limit.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	attempts := t.l.Attempts
	if attempts < 1 || !idempotent(req) {
		attempts = 1
	}
	wait := t.l.Backoff
	var lastErr error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			if t.l.Budget.left() <= 0 {
				return nil, lastErr
			}
			d := min(wait, t.l.Budget.left())
			if err := sleep(req.Context(), d); err != nil {
				return nil, lastErr
			}
			if isStall(lastErr) {
				t.l.Budget.spend(d, req.URL.Host)
			}
			wait *= 2
		}
		resp, err := t.once(req)
		if err == nil && !retryStatus(resp.StatusCode) {
			return resp, nil
		}
		if err == nil {
			if i == attempts-1 {
				return resp, nil
			}
			_ = resp.Body.Close() // a response set aside for a retry: nothing to act on
			lastErr = fmt.Errorf("%s answered %s", req.URL.Host, resp.Status)
			continue
		}
		if req.Context().Err() != nil {
			return nil, err
		}
		lastErr = err
	}
	return nil, lastErr
}

// once sends req one time. The wait for its answer is cut at what is left
// of the budget; a stall spends the time it waited.
func (t *transport) once(req *http.Request) (*http.Response, error) {
	left := t.l.Budget.left()
	if left <= 0 {
		return nil, t.l.Budget.exhausted(req.URL.Host)
	}
	ctx, cancel := context.WithCancel(req.Context())
	var cut atomic.Bool
	timer := time.AfterFunc(left, func() { cut.Store(true); cancel() })
	start := time.Now()
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	timer.Stop()
	if err != nil {
		cancel()
		var ne net.Error
		if req.Context().Err() == nil && (cut.Load() || (errors.As(err, &ne) && ne.Timeout())) {
			waited := time.Since(start)
			t.l.Budget.spend(waited, req.URL.Host)
			return nil, &StallError{Host: req.URL.Host, What: "answer", After: waited}
		}
		return nil, err
	}
	resp.Body = newIdleBody(resp.Body, cancel, req.URL.Host, t.l.Idle, t.l.Budget)
	return resp, nil
}

func isStall(err error) bool {
	var s *StallError
	return errors.As(err, &s)
}

func idempotent(req *http.Request) bool {
	return (req.Method == http.MethodGet || req.Method == http.MethodHead || req.Method == "") &&
		(req.Body == nil || req.Body == http.NoBody || req.GetBody != nil)
}

func retryStatus(code int) bool {
	return code == http.StatusBadGateway || code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// idleBody cancels its request when no read completes within idle (or
// what is left of the budget, but at least minIdle: a server that is
// sending is not cut because others stalled).
type idleBody struct {
	rc     io.ReadCloser
	cancel context.CancelFunc
	host   string
	idle   time.Duration
	budget *Budget
	timer  *time.Timer
	mu     sync.Mutex
	wait   time.Duration // the limit the timer was last set to
	fired  bool
}

// minIdle is the least a read of a body that is being sent is given.
const minIdle = time.Second

func newIdleBody(rc io.ReadCloser, cancel context.CancelFunc, host string, idle time.Duration, budget *Budget) io.ReadCloser {
	if idle <= 0 {
		return &cancelBody{rc, cancel}
	}
	b := &idleBody{rc: rc, cancel: cancel, host: host, idle: idle, budget: budget}
	b.wait = b.limit()
	b.timer = time.AfterFunc(b.wait, b.fire)
	return b
}

func (b *idleBody) limit() time.Duration {
	return min(b.idle, max(b.budget.left(), min(b.idle, minIdle)))
}

func (b *idleBody) fire() {
	b.mu.Lock()
	b.fired = true
	wait := b.wait
	b.mu.Unlock()
	b.budget.spend(wait, b.host)
	b.cancel()
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	fired, wait := b.fired, b.wait
	b.mu.Unlock()
	if fired && err != nil && !errors.Is(err, io.EOF) {
		return n, &StallError{Host: b.host, What: "send data", After: wait}
	}
	if n > 0 && !fired {
		w := b.limit()
		b.mu.Lock()
		b.wait = w
		b.mu.Unlock()
		b.timer.Reset(w)
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	err := b.rc.Close()
	b.cancel()
	return err
}

type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
