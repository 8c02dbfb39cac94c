// Package httpx is the HTTP client devenv uses toward mirrors, registries and
// artifact servers: it never waits forever. Connecting, the response headers
// and every read of a body each have a limit, idempotent requests are retried
// with backoff, and a failure names the server that stalled.
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
	"time"
)

// Limits are how long devenv waits for a server.
type Limits struct {
	Connect  time.Duration // to open a connection (and finish TLS)
	Header   time.Duration // for response headers once the request is sent
	Idle     time.Duration // between two reads of a response body
	Attempts int           // tries of an idempotent request
	Backoff  time.Duration // before the second try; doubled each time
}

// DefaultLimits are used unless DEVENV_NET_TIMEOUT (a Go duration such as
// "30s") sets Header and Idle.
func DefaultLimits() Limits {
	l := Limits{Connect: 15 * time.Second, Header: 60 * time.Second, Idle: 60 * time.Second, Attempts: 3, Backoff: time.Second}
	if d, err := time.ParseDuration(os.Getenv("DEVENV_NET_TIMEOUT")); err == nil && d > 0 {
		l.Header, l.Idle = d, d
		if d < l.Connect {
			l.Connect = d
		}
	}
	return l
}

// StallError says a server accepted a request and then stopped answering.
type StallError struct {
	Host  string
	What  string // "answer", "send data"
	After time.Duration
}

func (e *StallError) Error() string {
	return fmt.Sprintf("%s did not %s for %s; check that server (or the mirror in devenv.yaml `mirrors:`), or raise DEVENV_NET_TIMEOUT", e.Host, e.What, e.After)
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
			if err := sleep(req.Context(), wait); err != nil {
				return nil, lastErr
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

func (t *transport) once(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && req.Context().Err() == nil {
			return nil, &StallError{Host: req.URL.Host, What: "answer", After: t.l.Header}
		}
		return nil, err
	}
	resp.Body = newIdleBody(resp.Body, cancel, req.URL.Host, t.l.Idle)
	return resp, nil
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

// idleBody cancels its request when no read completes within idle.
type idleBody struct {
	rc     io.ReadCloser
	cancel context.CancelFunc
	host   string
	idle   time.Duration
	timer  *time.Timer
	mu     sync.Mutex
	fired  bool
}

func newIdleBody(rc io.ReadCloser, cancel context.CancelFunc, host string, idle time.Duration) io.ReadCloser {
	if idle <= 0 {
		return &cancelBody{rc, cancel}
	}
	b := &idleBody{rc: rc, cancel: cancel, host: host, idle: idle}
	b.timer = time.AfterFunc(idle, b.fire)
	return b
}

func (b *idleBody) fire() {
	b.mu.Lock()
	b.fired = true
	b.mu.Unlock()
	b.cancel()
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	fired := b.fired
	b.mu.Unlock()
	if fired && err != nil && !errors.Is(err, io.EOF) {
		return n, &StallError{Host: b.host, What: "send data", After: b.idle}
	}
	if n > 0 {
		b.timer.Reset(b.idle)
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
