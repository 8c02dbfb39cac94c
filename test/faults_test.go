package e2e

// The fault-injection suite: servers and an engine that stall, answer
// garbage or go away, a cache on a full file system. Each case checks that
// devenv fails within its limits, with the exit code of the README, naming
// the server at fault, and never panics.

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// blackhole accepts TCP connections and never answers.
func blackhole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// garbage answers every request 200 with bytes that are no format at all.
func garbage(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("\x00\xff{not json <html> \x1b[31m"))
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// TestFaultServersThatStallOrAnswerGarbage: lock against a registry mirror
// and artifact mirrors that accept and never answer, or answer garbage.
func TestFaultServersThatStallOrAnswerGarbage(t *testing.T) {
	w := newWorld(t)
	hole, junk := blackhole(t), garbage(t)
	tests := []struct {
		name          string
		registry      string // host:port standing in for nvcr.io
		artifacts     string // http://host:port serving maven2/ and apache/
		want          []string
		noServerNamed bool
	}{
		{"registry stalls", hole, w.art.URL(), []string{hole, "did not answer"}, false},
		{"artifact server stalls", w.registry, "http://" + hole, []string{hole, "did not answer"}, false},
		{"registry answers garbage", junk, w.art.URL(), []string{junk}, false},
		{"artifact server answers garbage", w.registry, "http://" + junk, []string{junk, "checksum"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			yaml := fmt.Sprintf("name: faults%d\n%smirrors:\n  registries: {nvcr.io: %q}\n  maven: %q\n  apache: %q\n",
				time.Now().UnixNano()%1e9, lockYAML, tt.registry, tt.artifacts+"/maven2", tt.artifacts+"/apache")
			dir := standin.Project(t, map[string]string{"devenv.yaml": yaml})
			start := time.Now()
			r := standin.Run(t, dir, append(w.env, "DEVENV_NET_TIMEOUT=1s"), "lock")
			if r.Code != 1 || strings.Contains(r.Stderr, "panic") {
				t.Fatalf("exit %d, want 1:\n%s", r.Code, r.Stderr)
			}
			for _, want := range tt.want {
				if !strings.Contains(r.Stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
				}
			}
			if d := time.Since(start); d > 90*time.Second {
				t.Errorf("lock took %s to give up with DEVENV_NET_TIMEOUT=1s", d)
			}
		})
	}
}

// freezingEngine forwards the Docker API to the real engine, except that
// requests whose path contains freeze are taken and never answered.
type freezingEngine struct {
	path   string
	freeze atomic.Value // string
	server *http.Server
}

func newFreezingEngine(t *testing.T) *freezingEngine {
	t.Helper()
	f := &freezingEngine{path: filepath.Join(t.TempDir(), "docker.sock")}
	f.freeze.Store("")
	ln, err := net.Listen("unix", f.path)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse("http://docker")
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	proxy.Transport = &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", "/var/run/docker.sock")
	}}
	f.server = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fr := f.freeze.Load().(string); fr != "" && strings.Contains(r.URL.Path, fr) {
			io.Copy(io.Discard, r.Body)
			<-r.Context().Done() // taken, never answered
			return
		}
		proxy.ServeHTTP(w, r)
	})}
	go f.server.Serve(ln)
	t.Cleanup(func() { f.server.Close() })
	return f
}

// TestFaultEngineStopsAnswering: an engine that takes a request in the
// middle of up and never answers makes devenv exit 3, saying so, instead of
// hanging; the next up against the real engine converges.
func TestFaultEngineStopsAnswering(t *testing.T) {
	w := newWorld(t)
	dir, name := w.project(t, plainPair, nil)
	w.must(t, dir, "lock")
	eng := newFreezingEngine(t)
	eng.freeze.Store("/containers/create")
	env := append(w.env, "DOCKER_HOST=unix://"+eng.path, "DEVENV_ENGINE_TIMEOUT=3s")
	start := time.Now()
	r := standin.Run(t, dir, env, "up")
	if r.Code != 3 || !strings.Contains(r.Stderr, "stopped answering") || strings.Contains(r.Stderr, "panic") {
		t.Fatalf("up against a frozen engine: exit %d, want 3 saying it stopped answering\n%s", r.Code, r.Stderr)
	}
	if d := time.Since(start); d > 60*time.Second {
		t.Errorf("up took %s to give up with DEVENV_ENGINE_TIMEOUT=3s", d)
	}
	w.must(t, dir, "up")
	for _, svc := range []string{"web", "worker"} {
		if c := inspect(t, name+"-"+svc); !c.State.Running {
			t.Errorf("after converging, %s is %s", svc, c.State.Status)
		}
	}
}
