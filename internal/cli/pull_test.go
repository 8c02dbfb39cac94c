package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// TestUpPullPolicy: up's --pull reads as Compose's: bare or always pulls
// again, missing pulls only what is missing, never pulls nothing and
// refuses a missing image, build is refused with the reason; the value
// may follow with a space or an "=".
func TestUpPullPolicy(t *testing.T) {
	project(t, twoPlain, true)
	noGPUMachine(t)
	t.Setenv("DEVENV_CACHE", t.TempDir())
	tests := []struct {
		args    []string
		missing bool // busybox:1 is not on the engine
		code    int
		pulls   int
		errHas  string
	}{
		{[]string{"up"}, false, 0, 0, ""},
		{[]string{"up", "--pull"}, false, 0, 2, ""},
		{[]string{"up", "--pull", "always"}, false, 0, 2, ""},
		{[]string{"up", "--pull=always", "app"}, false, 0, 2, ""},
		{[]string{"up", "app", "--pull", "always"}, false, 0, 2, ""},
		{[]string{"up", "--pull", "missing"}, true, 0, 1, ""},
		{[]string{"up", "--pull", "never"}, false, 0, 0, ""},
		{[]string{"up", "--pull", "never"}, true, 1, 0, "image busybox:1@sha256:"},
		{[]string{"up", "--pull", "never", "--dry-run"}, true, 1, 0, "--pull never forbids pulling it"},
		{[]string{"up", "--pull", "build"}, false, 2, 0, "--pull build: devenv builds the images whose inputs changed"},
		{[]string{"up", "--pull=sometimes"}, false, 2, 0, `--pull "sometimes": use always, missing or never`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			fake := enginetest.New()
			pinned := "@sha256:" + strings.Repeat("e", 64) // as fakePinner pins every image
			fake.AddImage("postgres:16"+pinned, nil)
			if !tt.missing {
				fake.AddImage("busybox:1"+pinned, nil)
			}
			replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return fake, nil })
			_, errOut, code := runCLI(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.errHas) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.errHas)
			}
			if got := len(fake.CallsTo("Pull")); got != tt.pulls {
				t.Errorf("%d pulls, want %d", got, tt.pulls)
			}
		})
	}
}
