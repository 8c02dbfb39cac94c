package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// releaseBuild is one linux/amd64 snapshot release of HEAD and the
// release's tools, built once per test process: the reproducibility test
// compares it with a second build, the install test installs it. Building
// both the tools and a release takes minutes from a cold Go cache, so the
// two tests share them instead of each paying for them.
type releaseBuild struct {
	Tools string // nfpm, cyclonedx-gomod, minisign, actionlint
	Dist  string // mkrelease's output for HEAD
	Epoch string // SOURCE_DATE_EPOCH: HEAD's commit time
}

var releaseShared = struct {
	toolsOnce, distOnce sync.Once
	build               releaseBuild
	toolsErr, distErr   error
}{}

// sharedTools returns the release's tools and HEAD's epoch (Dist empty),
// building the tools on first use.
func sharedTools(t *testing.T) releaseBuild {
	t.Helper()
	s := &releaseShared
	s.toolsOnce.Do(func() { s.build, s.toolsErr = buildTools(standin.ModuleRoot(t)) })
	if s.toolsErr != nil {
		t.Fatalf("building the release's tools: %v", s.toolsErr)
	}
	return releaseBuild{Tools: s.build.Tools, Epoch: s.build.Epoch}
}

// sharedRelease returns the process's release build, making it on first
// use; a failed build fails every test that asks for it, with its output.
func sharedRelease(t *testing.T) releaseBuild {
	t.Helper()
	b := sharedTools(t)
	s := &releaseShared
	s.distOnce.Do(func() {
		root := standin.ModuleRoot(t)
		src := filepath.Join(filepath.Dir(b.Tools), "checkout")
		atExit(func() { removeWorktree(root, src) })
		b.Dist = filepath.Join(filepath.Dir(b.Tools), "dist")
		s.distErr = mkrelease(root, src, b.Dist, b)
		s.build.Dist = b.Dist
	})
	if s.distErr != nil {
		t.Fatalf("building the release: %v", s.distErr)
	}
	return releaseBuild{Tools: b.Tools, Epoch: b.Epoch, Dist: s.build.Dist}
}

// buildTools builds the release's pinned tools (internal/tools and
// internal/tools/actionlint) into a directory that lives as long as the
// test process, and reads HEAD's commit time.
func buildTools(root string) (releaseBuild, error) {
	base, err := os.MkdirTemp("", "devenv-e2e-release-")
	if err != nil {
		return releaseBuild{}, err
	}
	atExit(func() { _ = os.RemoveAll(base) })
	b := releaseBuild{Tools: filepath.Join(base, "tools")}
	for _, mod := range []string{"internal/tools", "internal/tools/actionlint"} {
		if _, err := command(filepath.Join(root, mod), nil, "go", "build", "-o", b.Tools+"/", "tool"); err != nil {
			return b, err
		}
	}
	epoch, err := command(root, nil, "git", "log", "-1", "--format=%ct")
	b.Epoch = strings.TrimSpace(epoch)
	return b, err
}

// mkrelease builds the linux/amd64 release of HEAD from a checkout of its
// own in src (a detached worktree; the caller removes it with
// removeWorktree).
func mkrelease(root, src, dist string, b releaseBuild) error {
	worktrees.Lock() // git worktree add locks the repository's files: one at a time
	_, err := command(root, nil, "git", "worktree", "add", "--detach", src, "HEAD")
	worktrees.Unlock()
	if err != nil {
		return err
	}
	_, err = command(src, []string{"SOURCE_DATE_EPOCH=" + b.Epoch},
		"go", "run", "./internal/release/mkrelease", "-out", dist, "-tools", b.Tools, "-targets", "linux/amd64")
	return err
}

var worktrees sync.Mutex

func removeWorktree(root, src string) {
	worktrees.Lock()
	defer worktrees.Unlock()
	_ = exec.Command("git", "-C", root, "worktree", "remove", "--force", src).Run()
}

// command runs name in dir with env added and returns its combined output,
// or an error holding the command line and that output.
func command(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s %s in %s: %w\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out), nil
}

var exits struct {
	sync.Mutex
	fns []func()
}

// atExit runs fn when the test process ends (TestMain), for what outlives
// one test: the shared release build.
func atExit(fn func()) {
	exits.Lock()
	defer exits.Unlock()
	exits.fns = append(exits.fns, fn)
}

func runAtExit() {
	exits.Lock()
	defer exits.Unlock()
	for i := len(exits.fns) - 1; i >= 0; i-- {
		exits.fns[i]()
	}
}
