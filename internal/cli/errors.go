package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// report prints err for a person and returns the exit code it maps to.
func report(err error, w io.Writer, debug bool) int {
	if err == nil {
		return exitcode.OK
	}
	code := codeOf(err)
	if err.Error() == "" {
		return code // the error's exit code is the message (devenv exec)
	}
	if debug {
		fmt.Fprintf(w, "devenv: %+v\n", err)
		for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
			fmt.Fprintf(w, "  caused by (%T): %v\n", e, e)
		}
	} else {
		fmt.Fprintf(w, "devenv: %v\n", err)
	}
	return code
}

func codeOf(err error) int {
	var stale *lock.StaleError
	switch {
	case exitcode.Of(err) >= 0:
		return exitcode.Of(err)
	case errors.Is(err, context.Canceled):
		return exitcode.Interrupted
	case spec.IsInvalid(err):
		return exitcode.Usage
	case errors.Is(err, engine.ErrUnreachable):
		return exitcode.Engine
	case errors.Is(err, engine.ErrNoGPURuntime):
		return exitcode.GPU
	case errors.As(err, &stale):
		return exitcode.Drift
	}
	return exitcode.Failure
}
