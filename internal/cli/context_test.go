package cli

import (
	"context"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
)

// TestContextAndHostFlagsReachTheEngine: --context and --host/-H, before or
// after the command name, are what the engine is resolved with.
func TestContextAndHostFlagsReachTheEngine(t *testing.T) {
	_ = noNVMLHere(t)
	tests := []struct {
		args []string
		want app.EngineOptions
	}{
		{[]string{"--context", "gpu", "doctor"}, app.EngineOptions{Context: "gpu"}},
		{[]string{"doctor", "--context", "lab"}, app.EngineOptions{Context: "lab"}},
		{[]string{"-H", "ssh://me@gpubox", "doctor"}, app.EngineOptions{Host: "ssh://me@gpubox"}},
		{[]string{"doctor"}, app.EngineOptions{}},
	}
	for _, tt := range tests {
		var got *app.EngineOptions
		replace(t, &worldFor(t).Connect, func(_ context.Context, o app.EngineOptions) (engine.Engine, error) {
			got = &o
			return unreachable(t.Context(), o)
		})
		runCLI(t, tt.args...)
		if got == nil || got.Context != tt.want.Context || got.Host != tt.want.Host {
			t.Errorf("devenv %v connected with %+v, want %+v", tt.args, got, tt.want)
		}
	}
}
