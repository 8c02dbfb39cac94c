package e2e

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/filelock"
	"github.com/devenv-dev/devenv/test/standin"
)

const oneSpark = `services:
  spark:
    profile: spark-rapids
    spark: "` + sparkVersion + `"
    rapids: "` + rapidsVersion + `"
    java: "17"
    jupyter: false
    gpu: optional
`

// TestCtrlCStopsCleanlyAndUpConverges interrupts an up in the middle of a
// build: devenv exits 130, and the next up brings the project up.
func TestCtrlCStopsCleanlyAndUpConverges(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, oneSpark, nil)
	w.must(t, dir, "lock")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r := standin.RunWatching(ctx, t, dir, w.env, standin.InterruptWhen(cancel, "spark: building "), "up", "--no-cache")
	if !strings.Contains(r.Stderr, "spark: building ") {
		t.Fatalf("up ended before its build began (exit %d)\n%s", r.Code, r.Stderr)
	}
	if r.Code != 130 {
		t.Fatalf("interrupted up: exit %d, want 130\n%s", r.Code, r.Stderr)
	}
	w.must(t, dir, "up", "--wait")
	if c := inspect(t, name+"-spark"); !c.State.Running {
		t.Fatalf("after converging, spark is %s", c.State.Status)
	}
}

// TestEngineUnreachable: no engine at DOCKER_HOST gives exit 3 with the fix,
// and an engine that goes away in the middle of a run does too, never a panic.
func TestEngineUnreachable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, oneSpark, nil)
	w.must(t, dir, "lock")
	gone := filepath.Join(t.TempDir(), "none.sock")
	r := standin.Run(t, dir, append(w.env, "DOCKER_HOST=unix://"+gone), "ps")
	if r.Code != 3 || !strings.Contains(r.Stderr, gone) {
		t.Fatalf("no engine: exit %d\n%s", r.Code, r.Stderr)
	}

	proxy := newSocketProxy(t, "/var/run/docker.sock")
	var cut sync.Once
	r = standin.RunWatching(t.Context(), t, dir, append(w.env, "DOCKER_HOST=unix://"+proxy.path), func(stderr string) {
		if strings.Contains(stderr, "spark: building ") { // mid-run: the engine is building
			cut.Do(proxy.Close)
		}
	}, "up", "--no-cache")
	if r.Code != 3 || strings.Contains(r.Stderr, "panic") {
		t.Fatalf("engine gone mid-run: exit %d\n%s", r.Code, r.Stderr)
	}
}

// socketProxy forwards a unix socket to the engine's until closed, then cuts
// every connection, as an engine that stops would.
type socketProxy struct {
	path  string
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newSocketProxy(t *testing.T, target string) *socketProxy {
	p := &socketProxy{path: filepath.Join(t.TempDir(), "docker.sock")}
	ln, err := net.Listen("unix", p.path)
	if err != nil {
		t.Fatal(err)
	}
	p.ln = ln
	t.Cleanup(p.Close)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("unix", target)
			if err != nil {
				_ = c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c) }() // ends when either side closes
			go func() { _, _ = io.Copy(c, up) }()
		}
	}()
	return p
}

func (p *socketProxy) Close() {
	_ = p.ln.Close() // a second Close says it is closed already
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

// TestWaitReportsAFailingService: a service whose command exits makes
// up --wait fail with its state and its last log lines.
func TestWaitReportsAFailingService(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, `services:
  broken:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sh", "-c", "echo starting; echo cannot-open-config >&2; exit 3"]
`, nil)
	w.must(t, dir, "lock")
	r := w.run(t, dir, "up", "--wait", "--wait-timeout", "60s")
	if r.Code != 1 || !strings.Contains(r.Stderr, "exit code 3") || !strings.Contains(r.Stderr, "cannot-open-config") {
		t.Fatalf("up --wait on a failing service: exit %d\n%s", r.Code, r.Stderr)
	}
	r = w.must(t, dir, "ps", "--json")
	if !strings.Contains(r.Stdout, `"exit_code": 3`) {
		t.Errorf("ps does not show the exit code: %s", r.Stdout)
	}
}

// TestProjectLockWaitEndsAndNamesTheHolder: while another devenv holds the
// project, up/down/build wait saying who holds it; Ctrl-C ends the wait
// (exit 130) and --wait-timeout bounds it (exit 1), both naming the holder.
func TestProjectLockWaitEndsAndNamesTheHolder(t *testing.T) {
	t.Parallel()
	dir := standin.Project(t, map[string]string{"devenv.yaml": "name: e2elockwait\nservices:\n  box:\n    profile: image\n    image: debian:12\n"})
	held, err := filelock.Acquire(t.Context(), filepath.Join(dir, ".devenv", reconcile.LockFile), filelock.Options{Command: "devenv up (the test holds it)"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Release() }()
	holder := fmt.Sprintf("pid %d (devenv up (the test holds it))", os.Getpid())

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r := standin.RunWatching(ctx, t, dir, nil, standin.InterruptWhen(cancel, "another devenv is changing this project ("), "down")
	if r.Code != 130 || !strings.Contains(r.Stderr, holder) || !strings.Contains(r.Stderr, "stopped waiting") {
		t.Fatalf("Ctrl-C while waiting: exit %d, want 130 naming %s\n%s", r.Code, holder, r.Stderr)
	}
	r = standin.Run(t, dir, nil, "down", "--wait-timeout", "300ms")
	if r.Code != 1 || !strings.Contains(r.Stderr, holder) || !strings.Contains(r.Stderr, "--wait-timeout") {
		t.Fatalf("down --wait-timeout: exit %d, want 1 naming %s\n%s", r.Code, holder, r.Stderr)
	}
	if err := held.Release(); err != nil {
		t.Fatal(err)
	}
	if r := standin.Run(t, dir, nil, "down"); r.Code != 0 {
		t.Fatalf("down after the holder let go: exit %d\n%s", r.Code, r.Stderr)
	}
}
