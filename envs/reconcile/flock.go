package reconcile

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/devenv-dev/devenv/internal/filelock"
	"github.com/devenv-dev/devenv/internal/statedir"
)

// LockFile is the project lock's file in the state directory; the holder is
// described in LockFile+".holder".
const LockFile = "run.lock"

// LockOptions steer Lock.
type LockOptions struct {
	// Timeout bounds the wait for another devenv; 0 waits until ctx ends.
	Timeout time.Duration
	// Waiting is called once with the holder when another devenv holds the lock.
	Waiting func(filelock.Holder)
	// Project, when set, also serialises on the project name across directories.
	Project string
}

// Lock serialises devenv runs that change one project (two `devenv up` at
// once): it takes an exclusive lock on <state>/run.lock, waiting while
// another devenv holds it until ctx ends (Ctrl-C) or opt.Timeout passes.
// With opt.Project it then also takes this user's lock on the project name,
// so two directories using one name (two clones) never change the same
// Docker objects at once. The returned func releases both.
func Lock(ctx context.Context, stateDir string, opt LockOptions) (func(), error) {
	if err := checkLockPath(stateDir); err != nil { // .devenv, run.lock or its holder a link: nothing created through it
		return nil, err
	}
	release, err := acquire(ctx, filepath.Join(stateDir, LockFile), opt, "this project")
	if err != nil || opt.Project == "" {
		return release, err
	}
	path, err := nameLockPath(opt.Project)
	if err != nil {
		release()
		return nil, err
	}
	releaseName, err := acquire(ctx, path, opt, fmt.Sprintf("a project named %q (perhaps in another directory)", opt.Project))
	if err != nil {
		release()
		return nil, err
	}
	return func() { releaseName(); release() }, nil
}

func acquire(ctx context.Context, path string, opt LockOptions, what string) (func(), error) {
	l, err := filelock.Acquire(ctx, path, filelock.Options{Timeout: opt.Timeout, Waiting: opt.Waiting})
	var te *filelock.TimeoutError
	switch {
	case errors.As(err, &te):
		return nil, fmt.Errorf("another devenv is changing %s (%s) and still was after %s: let it finish and run this again, raise --wait-timeout, or stop that process if it is stuck",
			what, te.Holder, opt.Timeout)
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("stopped waiting for another devenv to finish changing %s (%s): %w", what, filelock.ReadHolder(path), ctx.Err())
	case err != nil:
		return nil, fmt.Errorf("cannot take the lock %s: %w", path, err)
	}
	return func() { _ = l.Release() }, nil
}

// nameLockPath is this user's lock file for a project name:
// $XDG_RUNTIME_DIR/devenv/projects/<name>.lock, else the same under the
// temporary directory with the user id in it.
func nameLockPath(project string) (string, error) {
	base := os.Getenv("XDG_RUNTIME_DIR")
	if base == "" {
		base = filepath.Join(os.TempDir(), fmt.Sprintf("devenv-%d", os.Getuid()))
	}
	dir := filepath.Join(base, "devenv", "projects")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("cannot make the project-name lock directory %s: %w", dir, err)
	}
	return filepath.Join(dir, url.PathEscape(project)+".lock"), nil
}

// checkLockPath makes .devenv a real directory and refuses a link at the
// lock file or its holder file, before the lock opens (and creates) them.
func checkLockPath(stateDir string) error {
	if err := statedir.MkdirAll(stateDir, stateDir); err != nil {
		return err
	}
	lock := filepath.Join(stateDir, LockFile)
	for _, p := range []string{lock, filelock.HolderPath(lock)} {
		if err := statedir.Check(stateDir, p); err != nil {
			return err
		}
	}
	return nil
}
