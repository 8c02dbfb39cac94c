package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// TestStopTimeoutFlag: -t N reaches Compose's stop, restart's stop and
// down as N seconds, -t 0 as zero seconds (Compose's meaning: kill at
// once), and no -t as none (each service's stop_grace_period).
func TestStopTimeoutFlag(t *testing.T) {
	tests := []struct {
		args []string
		want string // the timeout the executor was given
	}{
		{[]string{"stop"}, "none"},
		{[]string{"stop", "-t", "0"}, "0s"},
		{[]string{"stop", "--timeout", "7", "app"}, "7s"},
		{[]string{"restart", "-t", "0", "db"}, "0s"},
		{[]string{"restart", "db"}, "none"},
		{[]string{"rm", "--stop", "app"}, "none"},
		{[]string{"down", "db", "-t", "0"}, "0s"},
		{[]string{"down", "-t", "0"}, "0s"},
		{[]string{"down", "-t", "4"}, "4s"},
		{[]string{"down"}, "none"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			project(t, twoPlain, true)
			noGPUMachine(t)
			t.Setenv("DEVENV_CACHE", t.TempDir())
			fake := enginetest.New()
			fake.AddImage("postgres:16", nil)
			fake.AddImage("busybox:1", nil)
			replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return fake, nil })
			if _, errOut, code := runCLI(t, "up"); code != 0 {
				t.Fatalf("up: exit %d: %s", code, errOut)
			}
			from := len(fake.Calls())
			if _, errOut, code := runCLI(t, tt.args...); code != 0 {
				t.Fatalf("devenv %s: exit %d: %s", strings.Join(tt.args, " "), code, errOut)
			}
			var got []string
			for _, c := range fake.Calls()[from:] {
				switch a := c.Arg.(type) {
				case engine.ProjectStop:
					got = append(got, timeoutText(a.Timeout))
				case engine.ProjectRemove:
					got = append(got, timeoutText(a.Timeout))
				case engine.ProjectDown:
					got = append(got, timeoutText(a.Timeout))
				}
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("the executor's stops were given %v, want one with %s", got, tt.want)
			}
		})
	}
}

func timeoutText(d *time.Duration) string {
	if d == nil {
		return "none"
	}
	return fmt.Sprint(*d)
}
