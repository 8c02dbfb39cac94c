package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestExecWithATerminal: on a terminal, exec (through the Compose SDK)
// gives the command a TTY of the terminal's size and passes its exit code
// through; -T gives none. util-linux's script is the terminal.
func TestExecWithATerminal(t *testing.T) {
	t.Parallel()
	scriptTool, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script (util-linux) to run devenv on a terminal")
	}
	w := newWorld(t)
	dir, _ := w.project(t, chattyBox, nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")
	onTerminal := func(args string) (string, int) {
		t.Helper()
		// stty sets the terminal's size before devenv starts; script -e
		// exits with devenv's code
		cmd := exec.Command(scriptTool, "-qec", "stty rows 33 cols 101; "+standin.Devenv(t)+" "+args, "/dev/null")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), w.env...)
		out, _ := cmd.CombinedOutput()
		return strings.ReplaceAll(string(out), "\r", ""), cmd.ProcessState.ExitCode()
	}
	// before API 1.42 an exec's TTY is sized just after it starts (as
	// with docker exec -t), so the command waits for a size
	out, code := onTerminal(`exec box -- sh -c 'tty; for i in $(seq 50); do [ "$(stty size)" != "0 0" ] && break; sleep 0.1; done; stty size; exit 7'`)
	if code != 7 || !strings.Contains(out, "/dev/pts/") || !strings.Contains(out, "33 101") {
		t.Errorf("exec on a terminal: exit %d, want 7, a TTY of 33 rows and 101 columns:\n%s", code, out)
	}
	if out, code := onTerminal("exec -T box -- sh -c 'tty || true'"); code != 0 || !strings.Contains(out, "not a tty") {
		t.Errorf("exec -T on a terminal: exit %d, want no TTY:\n%s", code, out)
	}
}

// TestExecTTYDevNull: /dev/null is a character device but no terminal, so
// `devenv exec box cmd </dev/null >/dev/null` (how scripts and CI call it,
// as docker compose exec works there) asks for no TTY and runs.
func TestExecTTYDevNull(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, chattyBox, nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = null.Close() }()
	cmd := exec.Command(standin.Devenv(t), "exec", "box", "--", "sh", "-c", "exit 3")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), w.env...)
	cmd.Stdin, cmd.Stdout = null, null
	var stderr strings.Builder
	cmd.Stderr = &stderr
	_ = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Errorf("exec </dev/null >/dev/null: exit %d, want the command's 3:\n%s", code, stderr.String())
	}
}
