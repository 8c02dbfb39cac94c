package engine

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/docker/docker/client"
)

// MaxAnswer bounds the body of one engine answer that is not a stream (a
// listing, an inspect, /info): devenv lists only its project's objects
// (label filters on the engine's side), so 8 MiB holds thousands of
// containers of about 3 KB each. An engine (or something posing as one on
// DOCKER_HOST) that streams an endless answer is cut off there instead of
// growing devenv's memory without end (`ps` once grew to 16 GB).
const MaxAnswer int64 = 8 << 20

// keepHTTPClient makes the Docker client use an *http.Client that *dst
// points at afterwards: a copy of the one the options before it set up
// (same transport), so that capAnswers can wrap its transport once the
// client is built. It must be the last option.
func keepHTTPClient(dst **http.Client) client.Opt {
	return func(c *client.Client) error {
		hc := c.HTTPClient()
		*dst = hc
		return client.WithHTTPClient(hc)(c)
	}
}

// capAnswers wraps hc's transport so that each answer that is not a
// stream is read at most max bytes and for at most d in all.
func capAnswers(hc *http.Client, max int64, d time.Duration) {
	if hc != nil {
		hc.Transport = &answerLimit{next: hc.Transport, max: max, d: d}
	}
}

// CapAnswers is the same limit for another client of the engine (the
// Compose SDK's): next's answers that are not streams are read at most
// MaxAnswer bytes and, when d > 0, for at most d in all.
func CapAnswers(next http.RoundTripper, d time.Duration) http.RoundTripper {
	return &answerLimit{next: next, max: MaxAnswer, d: d}
}

type answerLimit struct {
	next http.RoundTripper
	max  int64
	d    time.Duration
}

func (a *answerLimit) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := a.next.RoundTrip(req)
	if err != nil || streams(req) {
		return resp, err
	}
	b := &cappedBody{body: resp.Body, left: a.max, what: req.Method + " " + apiPath(req.URL.Path), max: a.max, d: a.d}
	if a.d > 0 {
		b.timer = time.AfterFunc(a.d, b.expire)
	}
	resp.Body = b
	return resp, nil
}

// CloseIdleConnections passes through, for http.Client.CloseIdleConnections.
func (a *answerLimit) CloseIdleConnections() {
	if c, ok := a.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// apiPath drops the /v1.41 prefix.
func apiPath(p string) string {
	if strings.HasPrefix(p, "/v1.") {
		if i := strings.IndexByte(p[1:], '/'); i >= 0 {
			return p[i+1:]
		}
	}
	return p
}

// streams reports the endpoints whose answers are streams devenv reads
// as they come (logs, events, build and pull progress, attach, exec,
// wait, stats, archives): only the caller's context ends them.
func streams(req *http.Request) bool {
	p := apiPath(req.URL.Path)
	for _, pre := range []string{"/events", "/build", "/images/create", "/images/load", "/images/get", "/session", "/grpc", "/exec/", "/plugins/pull"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	for _, suf := range []string{"/logs", "/attach", "/wait", "/stats", "/export", "/archive", "/push", "/get"} {
		if strings.HasSuffix(p, suf) {
			return true
		}
	}
	return false
}

// cappedBody ends an answer over its size or its time.
type cappedBody struct {
	body  io.ReadCloser
	left  int64
	max   int64
	d     time.Duration
	what  string
	timer *time.Timer

	mu      sync.Mutex
	expired bool
}

func (b *cappedBody) expire() {
	b.mu.Lock()
	b.expired = true
	b.mu.Unlock()
	_ = b.body.Close() // unblocks a Read waiting on the engine
}

func (b *cappedBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	expired := b.expired
	b.mu.Unlock()
	if expired {
		return 0, &AnswerError{What: b.what, Took: b.d}
	}
	if b.left <= 0 {
		_ = b.Close()
		return 0, &AnswerError{What: b.what, Size: b.max}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.body.Read(p)
	b.left -= int64(n)
	if err != nil {
		b.mu.Lock()
		expired = b.expired
		b.mu.Unlock()
		if expired {
			return n, &AnswerError{What: b.what, Took: b.d}
		}
	}
	return n, err
}

func (b *cappedBody) Close() error {
	if b.timer != nil {
		b.timer.Stop()
	}
	return b.body.Close()
}

// AnswerError is an engine answer devenv stopped reading: over MaxAnswer,
// or still coming after the answer timeout. It counts as an unreachable
// engine (exit 3): one that answers like this cannot be worked with.
type AnswerError struct {
	What string        // "GET /containers/json"
	Size int64         // the limit it went over, or 0
	Took time.Duration // the time it went over, or 0
}

func (e *AnswerError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("the Docker engine's answer to %s went over %d MiB; devenv stopped reading it (is DOCKER_HOST a Docker engine? restart it)", e.What, e.Size>>20)
	}
	return fmt.Sprintf("the Docker engine's answer to %s was still coming after %s; devenv stopped reading it (DEVENV_ENGINE_TIMEOUT sets the limit; restart the engine)", e.What, e.Took)
}

// Unavailable marks the error as the engine being unusable (errdefs), so
// wrap classifies it with ErrUnreachable.
func (e *AnswerError) Unavailable() {}
