package httpx

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var fast = Limits{Connect: time.Second, Header: 200 * time.Millisecond, Idle: 200 * time.Millisecond, Attempts: 3, Backoff: 10 * time.Millisecond}

// blackhole accepts connections and never answers.
func blackhole(t *testing.T) (addr string, accepted *atomic.Int32) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = &atomic.Int32{}
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String(), accepted
}

func TestStalls(t *testing.T) {
	hole, accepted := blackhole(t)
	stallBody := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "first part")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer stallBody.Close()
	tests := []struct {
		name     string
		url      string
		wantHost string
		what     string
	}{
		{"accepts and never answers", "http://" + hole + "/simple/", hole, "did not answer"},
		{"body stops half way", stallBody.URL + "/spark.tgz", strings.TrimPrefix(stallBody.URL, "http://"), "did not send data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			resp, err := Client(fast).Get(tt.url)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				_ = resp.Body.Close()
			}
			var se *StallError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.wantHost) || !strings.Contains(err.Error(), tt.what) {
				t.Fatalf("err = %v, want a StallError naming %s (%s)", err, tt.wantHost, tt.what)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s with limits of 200ms", d)
			}
		})
	}
	if n := accepted.Load(); n != int32(fast.Attempts) {
		t.Errorf("the silent server got %d connections, want %d tries", n, fast.Attempts)
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name      string
		method    string
		failures  int32 // 503s before a 200
		wantCalls int32
		wantCode  int
	}{
		{"GET recovers after two 503s", http.MethodGet, 2, 3, 200},
		{"GET gives up after the attempts", http.MethodGet, 5, 3, 503},
		{"POST is never retried", http.MethodPost, 1, 1, 503},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) <= tt.failures {
					http.Error(w, "busy", http.StatusServiceUnavailable)
					return
				}
				_, _ = io.WriteString(w, "ok")
			}))
			defer srv.Close()
			req, _ := http.NewRequest(tt.method, srv.URL, strings.NewReader("x"))
			if tt.method == http.MethodGet {
				req, _ = http.NewRequest(tt.method, srv.URL, nil)
			}
			resp, err := Client(fast).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != tt.wantCode || calls.Load() != tt.wantCalls {
				t.Errorf("got %d after %d calls, want %d after %d", resp.StatusCode, calls.Load(), tt.wantCode, tt.wantCalls)
			}
		})
	}
}

func TestSlowButSteadyBodyIsNotAStall(t *testing.T) {
	// a gap 20 times under the idle limit, so a loaded machine's late
	// wake-ups (load average 10 made a 100 ms gap miss a 200 ms limit) do
	// not read as a stall; the whole body still takes longer than the
	// limit, so a limit on the whole read instead of each gap fails here
	steady := fast
	steady.Header, steady.Idle = time.Second, time.Second
	const chunks, gap = 30, 50 * time.Millisecond
	if chunks*gap <= steady.Idle {
		t.Fatal("the body must take longer than the idle limit")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < chunks; i++ {
			_, _ = io.WriteString(w, "chunk")
			w.(http.Flusher).Flush()
			time.Sleep(gap)
		}
	}))
	defer srv.Close()
	start := time.Now()
	resp, err := Client(steady).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if b, err := io.ReadAll(resp.Body); err != nil || len(b) != 5*chunks {
		t.Fatalf("read %d bytes, %v (after %s)", len(b), err, time.Since(start))
	}
}
