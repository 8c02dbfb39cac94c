package e2e

import (
	"strings"
	"testing"
)

// TestOneInit: a spark-rapids container runs a single init (the image's
// tini as PID 1) and its logs carry no "Tini is not running as PID 1".
func TestOneInit(t *testing.T) {
	w := newWorld(t)
	dir, name := w.project(t, oneSpark, nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")
	if c := inspect(t, name+"-spark"); c.HostConfig.Init != nil && *c.HostConfig.Init {
		t.Errorf("the engine's init runs too (HostConfig.Init), under the image's tini")
	}
	r := w.must(t, dir, "exec", "-T", "spark", "--", "cat", "/proc/1/comm")
	if got := strings.TrimSpace(r.Stdout); got != "tini" {
		t.Errorf("PID 1 is %q, want tini", got)
	}
	logs := w.must(t, dir, "logs", "spark")
	if all := logs.Stdout + logs.Stderr; strings.Contains(all, "Tini is not running as PID 1") {
		t.Errorf("the container logs a second init's warning:\n%s", all)
	}
}
