package e2e

import (
	"context"
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

var demoDir = regexp.MustCompile(`(?m)^devenv-demo: the demo project runs in (\S+)$`)

// TestMakeDemoInACleanClone runs the README's first line, `make demo`, as
// written in a clean clone of this checkout's HEAD (the engine holds no
// registry image, nothing reaches nvcr.io, Maven, Apache or PyPI, and there
// is no GPU): it must end with a running project in the directory it
// prints, outside the clone, say what is a stand-in and print the next
// commands. Then, with the stand-ins gone, ps shows the service running,
// up is a no-op, a second make demo changes nothing, and down removes it.
func TestMakeDemoInACleanClone(t *testing.T) {
	t.Parallel()
	clone := cleanClone(t)
	name := spec.DockerName(uniqueName("demo-"))
	dir := filepath.Join(t.TempDir(), name)
	standin.CleanupProject(t, name)
	standin.Debian(t) // the cached Debian base, as make demo finds it; built once for every e2e test

	out := makeDemo(t, clone, dir)
	m := demoDir.FindStringSubmatch(out)
	if m == nil || m[1] != dir {
		t.Fatalf("make demo printed no `the demo project runs in %s` line:\n%s", dir, out)
	}
	for _, want := range []string{"STAND-IN: " + standin.DebianRef, "STAND-INS: spark-submit", "STAND-IN: a small server", "cd " + dir + " && " + filepath.Join(clone, "bin", "devenv") + " ps", " down"} {
		if !strings.Contains(out, want) {
			t.Errorf("make demo does not say %q:\n%s", want, out)
		}
	}
	if strings.HasPrefix(dir, clone) {
		t.Errorf("the demo project %s is inside the clone %s", dir, clone)
	}
	bin := filepath.Join(clone, "bin", "devenv")
	env := []string{"NO_COLOR=1"}
	ps := standin.RunProgram(t, bin, dir, env, "ps")
	if ps.Code != 0 || !regexp.MustCompile(`(?m)^spark\s+running\s+healthy`).MatchString(ps.Stdout) {
		t.Fatalf("devenv ps in %s: exit %d, want spark running and healthy\n%s%s", dir, ps.Code, ps.Stdout, ps.Stderr)
	}
	if up := standin.RunProgram(t, bin, dir, env, "up"); up.Code != 0 || !strings.Contains(up.Stdout+up.Stderr, "1 unchanged") {
		t.Errorf("devenv up with the stand-ins gone: exit %d, want a no-op (1 unchanged)\n%s%s", up.Code, up.Stdout, up.Stderr)
	}
	yaml, lock := readFile(t, filepath.Join(dir, spec.FileName)), readFile(t, filepath.Join(dir, "devenv.lock"))
	again := makeDemo(t, clone, dir)
	if !strings.Contains(again, "devenv.lock is up to date") || !strings.Contains(again, "1 unchanged") {
		t.Errorf("a second make demo did more than check:\n%s", again)
	}
	if readFile(t, filepath.Join(dir, spec.FileName)) != yaml || readFile(t, filepath.Join(dir, "devenv.lock")) != lock {
		t.Errorf("a second make demo changed devenv.yaml or devenv.lock")
	}
	if down := standin.RunProgram(t, bin, dir, env, "down"); down.Code != 0 {
		t.Fatalf("devenv down: exit %d\n%s%s", down.Code, down.Stdout, down.Stderr)
	}
	if left := projectContainers(t, name); len(left) != 0 {
		t.Errorf("down left %v", left)
	}
}

// cleanClone clones this checkout's HEAD (what is committed, nothing
// else) into a temporary directory.
func cleanClone(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "devenv")
	c := exec.CommandContext(t.Context(), "git", "clone", "--quiet", "--no-hardlinks", standin.ModuleRoot(t), dir)
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, b)
	}
	return dir
}

// makeDemo runs `make demo` in the clone with the demo project at dir and
// returns its output; it fails the test when make fails.
func makeDemo(t *testing.T, clone, dir string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 12*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "make", "demo")
	c.Dir = clone
	c.Env = append(os.Environ(), "DEVENV_DEMO_DIR="+dir, "NO_COLOR=1")
	start := time.Now()
	b, err := c.CombinedOutput()
	t.Logf("make demo took %s", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("make demo: %v\n%s", err, b)
	}
	return string(b)
}
