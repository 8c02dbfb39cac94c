package app

import (
	"context"
	"errors"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/safefile"
)

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
