package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestFaultEngineStopsAnsweringWhileFollowingLogs: logs -f reads through
// the Compose SDK, and an engine that stops answering while it follows a
// quiet container still ends it with exit 3, saying so, instead of a
// hang: the watchdog's pings go unanswered.
func TestFaultEngineStopsAnsweringWhileFollowingLogs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, chattyBox, nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")
	eng := newFreezingEngine(t)
	cmd := exec.Command(standin.Devenv(t), "logs", "-f")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), w.env...), "DOCKER_HOST=unix://"+eng.path, "DEVENV_ENGINE_TIMEOUT=3s")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() }) // it may have exited already
	hello := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "hello") && hello != nil {
				close(hello)
				hello = nil
			}
		}
	}()
	select {
	case <-hello:
	case <-time.After(60 * time.Second):
		t.Fatal("logs -f printed no line in 60s")
	}
	eng.freeze.Store("/_ping") // the stream stays; the engine answers no ping
	start := time.Now()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		t.Logf("logs -f ended: %v", err) // its exit code is checked below
	case <-time.After(60 * time.Second):
		t.Fatal("logs -f went on 60s after the engine stopped answering pings (DEVENV_ENGINE_TIMEOUT=3s)")
	}
	if code := cmd.ProcessState.ExitCode(); code != 3 || !strings.Contains(stderr.String(), "stopped answering") {
		t.Fatalf("logs -f on an engine that stopped answering: exit %d, want 3 saying so\n%s", code, stderr.String())
	}
	t.Logf("logs -f gave up %s after the engine stopped answering", time.Since(start).Round(time.Millisecond))
}
