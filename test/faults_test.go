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
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/network"
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
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String()
}

// garbage answers every request 200 with bytes that are no format at all.
func garbage(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("\x00\xff{not json <html> \x1b[31m"))
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// TestFaultServersThatStallOrAnswerGarbage: lock against a registry mirror
// and artifact mirrors that accept and never answer, or answer garbage.
func TestFaultServersThatStallOrAnswerGarbage(t *testing.T) {
	t.Parallel()
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
// requests whose path contains freeze are taken and never answered, and
// once all is set nothing more is answered or forwarded, even on streams
// already running (an engine that hangs).
type freezingEngine struct {
	path   string
	freeze atomic.Value // string
	all    atomic.Bool
	builds atomic.Int32 // build requests seen
	server *http.Server
}

// frozenWriter stops passing the engine's answer on once the engine froze.
type frozenWriter struct {
	http.ResponseWriter
	f   *freezingEngine
	ctx context.Context
}

func (w frozenWriter) Write(b []byte) (int, error) {
	if w.f.all.Load() {
		<-w.ctx.Done()
		return 0, w.ctx.Err()
	}
	return w.ResponseWriter.Write(b)
}

func (w frozenWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.f.all.Load() {
		f.Flush()
	}
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
		if strings.HasSuffix(r.URL.Path, "/build") {
			f.builds.Add(1)
		}
		if fr := f.freeze.Load().(string); f.all.Load() || (fr != "" && strings.Contains(r.URL.Path, fr)) {
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done() // taken, never answered
			return
		}
		proxy.ServeHTTP(frozenWriter{w, f, r.Context()}, r)
	})}
	go func() { _ = f.server.Serve(ln) }() // http.ErrServerClosed once the cleanup closes it
	t.Cleanup(func() { _ = f.server.Close() })
	return f
}

// TestFaultEngineStopsAnswering: an engine that takes a request in the
// middle of up and never answers makes devenv exit 3, saying so, instead of
// hanging; the next up against the real engine converges.
func TestFaultEngineStopsAnswering(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, plainPair(freePort(t)), nil)
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

// TestFaultTwoClonesOneName: two directories using one project name, run
// at the same time: one gets the project, the other is refused naming the
// first, and the engine holds one network of that name, not two.
func TestFaultTwoClonesOneName(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	name := uniqueName("clones")
	files := map[string]string{"devenv.yaml": "name: " + name + "\n" + plainPair(freePort(t)) + w.mirrors()}
	a, b := standin.Project(t, files), standin.Project(t, files)
	standin.CleanupProject(t, name)
	w.must(t, a, "lock")
	w.must(t, b, "lock")
	var wg sync.WaitGroup
	res := make([]standin.Result, 2)
	for i, dir := range []string{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = standin.Run(t, dir, w.env, "up")
		}()
	}
	wg.Wait()
	won, lost := 0, 1
	if res[0].Code != 0 {
		won, lost = 1, 0
	}
	dirs := []string{a, b}
	if res[won].Code != 0 || res[lost].Code != 1 || !strings.Contains(res[lost].Stderr, "in use by "+dirs[won]) {
		t.Fatalf("concurrent up from two clones: exits %d and %d, want one 0 and one 1 naming the winner\n%s\n%s",
			res[0].Code, res[1].Code, res[0].Stderr, res[1].Stderr)
	}
	cli := standin.Docker(t)
	nets, err := cli.NetworkList(t.Context(), network.ListOptions{Filters: filters.NewArgs(filters.Arg("name", name))})
	if err != nil || len(nets) != 1 {
		t.Fatalf("networks named %s: %d (%v), want 1", name, len(nets), err)
	}
	// The loser cannot take the project down either; the winner still can.
	if r := standin.Run(t, dirs[lost], w.env, "down"); r.Code != 1 || !strings.Contains(r.Stderr, "in use by") {
		t.Errorf("down from the other clone: exit %d\n%s", r.Code, r.Stderr)
	}
	if got := projectContainers(t, name); len(got) != 2 {
		t.Errorf("containers after the refused down: %v", got)
	}
	w.must(t, dirs[won], "down")
}

// TestFaultCacheFileSystemFills: the artifact cache on a file system that
// fills during the download makes lock fail saying so, leaving no partial
// download behind and no devenv.lock.
func TestFaultCacheFileSystemFills(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", cache).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (needs root): %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", cache).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", cache, err, out)
		}
	})
	// Leave 8 KiB: less than any Spark distribution.
	if out, err := exec.Command("dd", "if=/dev/zero", "of="+filepath.Join(cache, "filler"), "bs=4k", "count=14").CombinedOutput(); err != nil {
		t.Fatalf("filling the tmpfs: %v: %s", err, out)
	}
	w := newWorld(t)
	dir, _ := w.project(t, lockYAML, nil)
	env := append(append([]string{}, w.env...), "DEVENV_CACHE="+cache)
	r := standin.Run(t, dir, env, "lock")
	if r.Code != 1 || !strings.Contains(r.Stderr, "no space left on device") || !strings.Contains(r.Stderr, cache) || strings.Contains(r.Stderr, "panic") {
		t.Fatalf("lock on a full cache: exit %d, want 1 saying the cache is full\n%s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "devenv.lock")); !os.IsNotExist(err) {
		t.Error("a failed lock wrote devenv.lock")
	}
	matches, _ := filepath.Glob(filepath.Join(cache, "artifacts", ".download-*"))
	if len(matches) != 0 {
		t.Errorf("partial downloads left in the cache: %v", matches)
	}
}

// TestFaultInterruptedWhileWaiting: Ctrl-C while devenv waits on a stalled
// artifact server (lock) or a frozen engine (up) ends it at once with 130,
// leaving no devenv.lock half written.
func TestFaultInterruptedWhileWaiting(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	hole := blackhole(t)
	tests := []struct {
		name  string
		yaml  string
		setup func(t *testing.T, dir string) []string // extra env
		args  []string
	}{
		{"lock waiting on an artifact server", lockYAML, func(t *testing.T, dir string) []string {
			writeFile(t, dir, "devenv.yaml", strings.NewReplacer(w.art.MavenURL(), "http://"+hole+"/maven2", w.art.ApacheURL(), "http://"+hole+"/apache").Replace(readFile(t, filepath.Join(dir, "devenv.yaml"))))
			return nil
		}, []string{"lock"}},
		{"up waiting on a frozen engine", plainPair(freePort(t)), func(t *testing.T, dir string) []string {
			w.must(t, dir, "lock")
			eng := newFreezingEngine(t)
			eng.freeze.Store("/containers/create")
			return []string{"DOCKER_HOST=unix://" + eng.path}
		}, []string{"up"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, _ := w.project(t, tt.yaml, nil)
			env := append(append([]string{}, w.env...), tt.setup(t, dir)...)
			ctx, cancel := context.WithTimeout(t.Context(), 4*time.Second)
			defer cancel()
			start := time.Now()
			r := standin.RunContext(ctx, t, dir, env, tt.args...)
			if r.Code != 130 || strings.Contains(r.Stderr, "panic") {
				t.Fatalf("interrupted: exit %d, want 130\n%s", r.Code, r.Stderr)
			}
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("devenv took %s to stop after Ctrl-C", d)
			}
			if matches, _ := filepath.Glob(filepath.Join(dir, "devenv.lock.*")); len(matches) != 0 {
				t.Errorf("temporary lock files left: %v", matches)
			}
		})
	}
}

// TestFaultEngineHangsMidBuild: the engine stops answering while a build
// streams (a quiet RUN step looks the same on the stream): devenv's pings
// go unanswered, and it exits 3 instead of waiting forever.
func TestFaultEngineHangsMidBuild(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, oneSpark, nil)
	w.must(t, dir, "lock")
	eng := newFreezingEngine(t)
	go func() {
		for eng.builds.Load() == 0 {
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(2 * time.Second)
		eng.all.Store(true)
	}()
	env := append(append([]string{}, w.env...), "DOCKER_HOST=unix://"+eng.path, "DEVENV_ENGINE_TIMEOUT=4s")
	start := time.Now()
	r := standin.Run(t, dir, env, "up", "--no-cache")
	if r.Code != 3 || !strings.Contains(r.Stderr, "stopped answering") || strings.Contains(r.Stderr, "panic") {
		t.Fatalf("up against an engine hanging mid-build: exit %d, want 3\n%s", r.Code, r.Stderr)
	}
	if eng.builds.Load() == 0 {
		t.Fatal("no build reached the engine: the hang was not mid-build")
	}
	if d := time.Since(start); d > 3*time.Minute {
		t.Errorf("took %s to give up", d)
	}
}
