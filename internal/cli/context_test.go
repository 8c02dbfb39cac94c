package cli

import (
	"context"
	"testing"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
)

// TestContextAndHostFlagsReachTheEngine: --context and --host/-H, before or
// after the command name, are what the engine is resolved with.
func TestContextAndHostFlagsReachTheEngine(t *testing.T) {
	_ = noNVMLHere(t)
	tests := []struct {
		args []string
		want endpoint.Options
	}{
		{[]string{"--context", "gpu", "doctor"}, endpoint.Options{Context: "gpu"}},
		{[]string{"doctor", "--context", "lab"}, endpoint.Options{Context: "lab"}},
		{[]string{"-H", "ssh://me@gpubox", "doctor"}, endpoint.Options{Host: "ssh://me@gpubox"}},
		{[]string{"doctor"}, endpoint.Options{}},
	}
	for _, tt := range tests {
		var got *endpoint.Options
		replace(t, &worldFor(t).Connect, func(_ context.Context, o endpoint.Options) (engine.Engine, error) {
			got = &o
			return unreachable(t.Context(), o)
		})
		runCLI(t, tt.args...)
		if got == nil || got.Context != tt.want.Context || got.Host != tt.want.Host {
			t.Errorf("devenv %v connected with %+v, want %+v", tt.args, got, tt.want)
		}
	}
}
