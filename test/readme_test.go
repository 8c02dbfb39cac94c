package e2e

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/test/standin"
)

// quickStart returns the commands of README.md's "## Quick start" sh block,
// comments removed, in order: the test runs what the README says, so the
// two cannot drift apart.
func quickStart(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(standin.ModuleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var cmds []string
	section, block := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			section = line == "## Quick start"
		case section && strings.HasPrefix(line, "```"):
			if block {
				return cmds
			}
			block = true
		case section && block:
			if cmd, _, _ := strings.Cut(line, "#"); strings.TrimSpace(cmd) != "" {
				cmds = append(cmds, strings.TrimSpace(cmd))
			}
		}
	}
	t.Fatalf("README.md has no ```sh block under ## Quick start")
	return nil
}

// readmeOutcome is what each Quick start command must do on this machine,
// which has no GPU: everything succeeds (doctor too, the service being
// gpu: optional) except verify, which must say that nothing ran on the GPU
// because the service runs in CPU mode.
var readmeOutcome = map[string]struct {
	code int
	say  string // in stdout or stderr, ignoring case
}{
	"init":   {0, "devenv.yaml"},
	"doctor": {0, "gpu"},
	"lock":   {0, "devenv.lock"},
	"up":     {0, "http://127.0.0.1:"},
	"ps":     {0, "running"},
	"verify": {1, "CPU mode"},
	"down":   {0, ""},
}

// TestReadmeQuickStart runs README.md's Quick start as written, in a new
// project directory, with the mirrors pointing at the in-process stand-ins
// (DEVENV_MIRROR_* as the README describes). After init, the only edits are
// the ones this machine needs: gpu: optional, free host ports, and the
// stand-in spark-submit's recorded verify output.
func TestReadmeQuickStart(t *testing.T) {
	t.Parallel()
	cmds := quickStart(t)
	if len(cmds) < 5 || !strings.HasPrefix(cmds[0], "make ") {
		t.Fatalf("Quick start commands: %q", cmds)
	}
	env := starterWorld(t, "spark-rapids")
	dir, name := emptyProject(t, "readme")
	for _, cmd := range cmds {
		switch {
		case strings.HasPrefix(cmd, "make "):
			makeDevenv(t, cmd, dir)
			continue
		case strings.HasPrefix(cmd, "export PATH="):
			// run where make put the programs (dir/bin here), as the README
			// runs it in the clone: $PWD/bin
			env = append(env, "PATH="+readmePath(t, cmd, dir))
			continue
		case strings.HasPrefix(cmd, "mkdir ") && strings.Contains(cmd, "&& cd "):
			continue // the project's own directory: dir stands for it
		}
		f := strings.Fields(cmd)
		if len(f) < 2 || f[0] != "devenv" {
			t.Fatalf("the Quick start runs %q, which this test does not know: say what it must do here", cmd)
		}
		verb := f[1]
		want, ok := readmeOutcome[verb]
		if !ok {
			t.Fatalf("the Quick start runs %q, which this test does not know: say what it must do here", cmd)
		}
		r := shell(t, dir, env, cmd)
		out := r.Stdout + r.Stderr
		if r.Code != want.code || !strings.Contains(strings.ToLower(out), strings.ToLower(want.say)) {
			t.Fatalf("%s: exit %d, want %d saying %q\n%s", cmd, r.Code, want.code, want.say, out)
		}
		if verb == "init" {
			onThisMachine(t, dir)
			standinVerify(t, dir)
		}
	}
	if left := projectContainers(t, name); len(left) != 0 {
		t.Errorf("down left %v", left)
	}
}

// makeDevenv runs a README make command in the repository, then puts the
// programs it built where the README runs them from: ./bin/devenv, with
// ./bin/devenv-core and ./bin/devenv-nvml beside it.
func makeDevenv(t *testing.T, cmd, dir string) {
	t.Helper()
	root := standin.ModuleRoot(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", cmd)
	c.Dir = root
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, b)
	}
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, prog := range []string{"devenv", "devenv-core", "devenv-nvml"} {
		data, err := os.ReadFile(filepath.Join(root, "bin", prog))
		if err != nil {
			t.Fatalf("%s built no bin/%s: %v", cmd, prog, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "bin", prog), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// readmePath is the PATH after the Quick start's export line, run in dir.
func readmePath(t *testing.T, line, dir string) string {
	t.Helper()
	if line != "export PATH=$PWD/bin:$PATH" {
		t.Fatalf("the Quick start sets PATH with %q, which this test does not know", line)
	}
	return filepath.Join(dir, "bin") + string(os.PathListSeparator) + os.Getenv("PATH")
}

// shell runs one README line with sh in dir.
func shell(t *testing.T, dir string, env []string, line string) standin.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", line)
	c.Dir = dir
	c.Env = append(os.Environ(), env...)
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	t.Logf("%s: exit %d", line, code)
	return standin.Result{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
}

var sparkServiceLine = regexp.MustCompile(`(?m)^    profile: spark-rapids\n`)

// standinVerify gives the stand-in spark-submit the output verify.py would
// print on this machine (every operator on the CPU).
func standinVerify(t *testing.T, dir string) {
	t.Helper()
	writeFile(t, dir, "verify-output.txt", recordedVerify(t, "tpch-q4-cpu.txt"))
	path := filepath.Join(dir, spec.FileName)
	text := readFile(t, path)
	if !sparkServiceLine.MatchString(text) {
		t.Fatalf("the starter has no spark-rapids service line:\n%s", text)
	}
	text = sparkServiceLine.ReplaceAllString(text, "    profile: spark-rapids\n    env: {DEVENV_STANDIN_PLAN: /workspace/verify-output.txt}\n")
	writeFile(t, dir, spec.FileName, text)
}
