package app

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/hashicorp/go-multierror"
)

func TestExitCode(t *testing.T) {
	invalid := &spec.Error{File: "devenv.yaml", Msg: "bad"}
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"no error", nil, exitcode.OK},
		{"a marked error keeps its code", exitcode.Newf(exitcode.Drift, "drift"), exitcode.Drift},
		{"the mark wins over the cause", exitcode.With(exitcode.Failure, fmt.Errorf("x: %w", engine.ErrUnreachable)), exitcode.Failure},
		{"a cancelled context is an interrupt", fmt.Errorf("pull: %w", context.Canceled), exitcode.Interrupted},
		{"an invalid devenv.yaml", invalid, exitcode.Usage},
		{"an invalid devenv.yaml among other problems", multierror.Append(nil, errors.New("other"), invalid), exitcode.Usage},
		{"an unreachable engine", fmt.Errorf("connect: %w", engine.ErrUnreachable), exitcode.Engine},
		{"no GPU runtime", engine.ErrNoGPURuntime, exitcode.GPU},
		{"a GPU the host lacks", fmt.Errorf("place: %w", gpu.ErrNoSuchGPU), exitcode.GPU},
		{"no GPU", gpu.ErrNoGPU, exitcode.GPU},
		{"a stale lock", fmt.Errorf("up: %w", &lock.StaleError{Reasons: []string{"x"}}), exitcode.Drift},
		{"anything else", errors.New("boom"), exitcode.Failure},
	}
	for _, tt := range tests {
		if got := ExitCode(tt.err); got != tt.want {
			t.Errorf("%s: ExitCode = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestInterrupted(t *testing.T) {
	err := Interrupted(errors.New("pull: context canceled"))
	if ExitCode(err) != ExitInterrupted || err.Error() != "interrupted: pull: context canceled" {
		t.Errorf("Interrupted = %q (exit %d), want the cause said as interrupted, exit 130", err, ExitCode(err))
	}
	quiet := WithExit(ExitInterrupted, errors.New(""))
	if got := Interrupted(quiet); got != quiet { //nolint:errorlint // the very error handed in, not one that wraps it
		t.Errorf("Interrupted of an error that ends with 130 already = %q, want it as it is", got)
	}
}
