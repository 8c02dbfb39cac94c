package reconcile

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/devenv-dev/devenv/internal/filelock"
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
}

// Lock serialises devenv runs that change one project (two `devenv up` at
// once): it takes an exclusive lock on <state>/run.lock, waiting while
// another devenv holds it until ctx ends (Ctrl-C) or opt.Timeout passes.
// The returned func releases it.
func Lock(ctx context.Context, stateDir string, opt LockOptions) (func(), error) {
	path := filepath.Join(stateDir, LockFile)
	l, err := filelock.Acquire(ctx, path, filelock.Options{Timeout: opt.Timeout, Waiting: opt.Waiting})
	var te *filelock.TimeoutError
	switch {
	case errors.As(err, &te):
		return nil, fmt.Errorf("another devenv is changing this project (%s) and still was after %s: let it finish and run this again, raise --wait-timeout, or stop that process if it is stuck",
			te.Holder, opt.Timeout)
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("stopped waiting for another devenv to finish changing this project (%s): %w", filelock.ReadHolder(path), ctx.Err())
	case err != nil:
		return nil, fmt.Errorf("cannot take the project lock %s: %w", path, err)
	}
	return func() { _ = l.Release() }, nil
}
