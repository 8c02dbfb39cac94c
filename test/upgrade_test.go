package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// upgradeFrom is release N when no tag exists yet: the last commit before
// devenv had releases. DEVENV_TEST_UPGRADE_FROM names another; the newest
// tag wins over this default once there is one.
const upgradeFrom = "13678bd"

func previousRelease(t *testing.T, root string) string {
	if c := os.Getenv("DEVENV_TEST_UPGRADE_FROM"); c != "" {
		return c
	}
	if out, err := exec.Command("git", "-C", root, "describe", "--tags", "--abbrev=0").Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	if exec.Command("git", "-C", root, "cat-file", "-e", upgradeFrom+"^{commit}").Run() != nil {
		t.Skipf("the clone lacks commit %s (release N of the upgrade test; a shallow clone?): set DEVENV_TEST_UPGRADE_FROM", upgradeFrom)
	}
	return upgradeFrom
}

// TestUpgradeKeepsProjects: a project brought up by the previous release's
// programs keeps every container (IDs and creation times) when the new
// programs run up, and its lock stays valid (lock --check exits 0).
func TestUpgradeKeepsProjects(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the previous release")
	}
	t.Parallel()
	root := standin.ModuleRoot(t)
	from := previousRelease(t, root)
	src := filepath.Join(t.TempDir(), "old")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	archive := exec.Command("bash", "-c", "git -C \"$1\" archive \"$2\" | tar -x -C \"$3\"", "-", root, from, src)
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("git archive %s: %v\n%s", from, err, out)
	}
	runIn(t, src, "go", "build", "-trimpath", "-o", filepath.Join(src, "bin")+"/", "./cmd/devenv", "./cmd/devenv-core")
	old := filepath.Join(src, "bin", "devenv")

	w := newWorld(t)
	dir, name := w.project(t, "services:\n  shell:\n    profile: image\n    image: nvcr.io/"+plainBase+"\n    command: [sleep, infinity]\n"+
		"  web:\n    profile: image\n    image: nvcr.io/"+plainBase+"\n    command: [sleep, infinity]\n", nil)
	mustRun := func(bin string, args ...string) {
		t.Helper()
		if r := standin.RunProgram(t, bin, dir, w.env, args...); r.Code != 0 {
			t.Fatalf("%s %s: exit %d\n%s%s", bin, strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
		}
	}
	mustRun(old, "lock")
	mustRun(old, "up")
	before := map[string]string{}
	for _, c := range projectContainers(t, name) {
		i := inspect(t, c)
		before[c] = i.ID + " " + i.Created
	}
	if len(before) != 2 {
		t.Fatalf("release %s's up left %v", from, before)
	}
	lockBefore := readFile(t, filepath.Join(dir, "devenv.lock"))
	mustRun(standin.Devenv(t), "lock", "--check")
	mustRun(standin.Devenv(t), "up")
	for _, c := range projectContainers(t, name) {
		i := inspect(t, c)
		if got := i.ID + " " + i.Created; got != before[c] || !i.State.Running {
			t.Errorf("%s was recreated or stopped by the new programs: before %q, after %q (running %v)", c, before[c], got, i.State.Running)
		}
	}
	if got := readFile(t, filepath.Join(dir, "devenv.lock")); got != lockBefore {
		t.Errorf("the new programs rewrote the lock:\n%s", got)
	}
}
