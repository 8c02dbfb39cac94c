package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// The documented exit codes (README), part of app's contract: what a use
// case's error ends devenv with. internal/exitcode holds them, so the
// packages below app mark their errors with the same numbers.
const (
	ExitOK          = exitcode.OK
	ExitFailure     = exitcode.Failure
	ExitUsage       = exitcode.Usage
	ExitEngine      = exitcode.Engine
	ExitGPU         = exitcode.GPU
	ExitDrift       = exitcode.Drift
	ExitInterrupted = exitcode.Interrupted
)

// WithExit marks err with the exit code devenv ends with; nil stays nil.
func WithExit(code int, err error) error { return exitcode.With(code, err) }

// Exitf is WithExit(code, fmt.Errorf(format, args...)).
func Exitf(code int, format string, args ...any) error { return exitcode.Newf(code, format, args...) }

// Interrupted is the error of a command that a Ctrl-C stopped: whatever
// it failed with, devenv exits 130 saying it was interrupted, unless err
// already ends with 130 (it said so itself).
func Interrupted(err error) error {
	if exitcode.Of(err) == exitcode.Interrupted {
		return err
	}
	return exitcode.With(exitcode.Interrupted, fmt.Errorf("interrupted: %w", err))
}

// ExitCode is the documented exit code (internal/exitcode, README) an
// error of a use case ends devenv with: the code it was marked with, else
// the one its cause in the pipeline stands for (an invalid devenv.yaml is a
// usage error, and so is a file devenv refuses to read (a FIFO, a device, too
// large, leading outside the project), an unreachable engine 3, a missing GPU or runtime 4, a stale
// lock 5, a cancelled context an interrupt), else 1.
func ExitCode(err error) int {
	var stale *lock.StaleError
	switch {
	case err == nil:
		return exitcode.OK
	case exitcode.Of(err) >= 0:
		return exitcode.Of(err)
	case errors.Is(err, context.Canceled):
		return exitcode.Interrupted
	case spec.IsInvalid(err), safefile.IsRefused(err):
		return exitcode.Usage
	case errors.Is(err, engine.ErrUnreachable):
		return exitcode.Engine
	case errors.Is(err, engine.ErrNoGPURuntime), errors.Is(err, gpu.ErrNoSuchGPU), errors.Is(err, gpu.ErrNoGPU):
		return exitcode.GPU
	case errors.As(err, &stale):
		return exitcode.Drift
	}
	return exitcode.Failure
}
