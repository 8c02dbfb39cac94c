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
	once  sync.Once
	build releaseBuild
	err   error
}{}

// sharedRelease returns the process's release build, making it on first
// use; a failed build fails every test that asks for it, with its output.
func sharedRelease(t *testing.T) releaseBuild {
	t.Helper()
	releaseShared.once.Do(func() { releaseShared.build, releaseShared.err = buildRelease(standin.ModuleRoot(t)) })
	if releaseShared.err != nil {
		t.Fatalf("building the release: %v", releaseShared.err)
	}
	return releaseShared.build
}

func buildRelease(root string) (releaseBuild, error) {
	base, err := os.MkdirTemp("", "devenv-e2e-release-")
	if err != nil {
		return releaseBuild{}, err
	}
	atExit(func() { _ = os.RemoveAll(base) })
	b := releaseBuild{Tools: filepath.Join(base, "tools"), Dist: filepath.Join(base, "dist")}
	for _, mod := range []string{"internal/tools", "internal/tools/actionlint"} {
		if _, err := command(filepath.Join(root, mod), nil, "go", "build", "-o", b.Tools+"/", "tool"); err != nil {
			return b, err
		}
	}
	epoch, err := command(root, nil, "git", "log", "-1", "--format=%ct")
	if err != nil {
		return b, err
	}
	b.Epoch = strings.TrimSpace(epoch)
	src := filepath.Join(base, "checkout")
	atExit(func() { removeWorktree(root, src) })
	return b, mkrelease(root, src, b.Dist, b)
}

// mkrelease builds the linux/amd64 release of HEAD from a checkout of its
// own in src (a detached worktree; the caller removes it with
// removeWorktree).
func mkrelease(root, src, dist string, b releaseBuild) error {
	if _, err := command(root, nil, "git", "worktree", "add", "--detach", src, "HEAD"); err != nil {
		return err
	}
	_, err := command(src, []string{"SOURCE_DATE_EPOCH=" + b.Epoch},
		"go", "run", "./internal/release/mkrelease", "-out", dist, "-tools", b.Tools, "-targets", "linux/amd64")
	return err
}

func removeWorktree(root, src string) {
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
		return string(out), fmt.Errorf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
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
