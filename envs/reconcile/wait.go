package reconcile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
)

// UnhealthyError says a service did not become healthy, with its last logs.
type UnhealthyError struct {
	Service, State string
	LastLogs       string
}

func (e *UnhealthyError) Error() string {
	return fmt.Sprintf("service %s is %s; its last log lines:\n%s\nsee `devenv logs %s` and `devenv logs --diagnose %s`",
		e.Service, e.State, indent(e.LastLogs), e.Service, e.Service)
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "  (no output)"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// WaitHealthy waits until every service is running and, where it has a
// healthcheck, healthy. A service that exits or turns unhealthy, or the
// timeout, ends the wait with that service's last log lines. Each
// service's container is the one proj (the plan rendered) names.
func (r *Runner) WaitHealthy(ctx context.Context, proj *types.Project, svcs []*plan.Service, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	deadline := time.Now().Add(timeout)
	pending := make([]waited, 0, len(svcs))
	for _, s := range svcs {
		pending = append(pending, waited{service: s.Name, container: proj.Services[s.Name].ContainerName})
	}
	for len(pending) > 0 {
		var still []waited
		for _, w := range pending {
			done, err := r.checkHealth(ctx, w)
			if err != nil {
				return err
			}
			if !done {
				still = append(still, w)
			}
		}
		pending = still
		if len(pending) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return r.unhealthy(ctx, pending[0], "not healthy after "+timeout.String())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return nil
}

// waited is a service --wait waits for, and its container.
type waited struct{ service, container string }

func (r *Runner) checkHealth(ctx context.Context, w waited) (bool, error) {
	st, err := r.Eng.Inspect(ctx, w.container)
	if err != nil {
		return false, err
	}
	switch {
	case !st.Running && st.Status != "created" && st.Status != "restarting":
		return false, r.unhealthy(ctx, w, fmt.Sprintf("%s (exit code %d)", st.Status, st.ExitCode))
	case st.Health == engine.HealthUnhealthy:
		return false, r.unhealthy(ctx, w, "unhealthy")
	case st.Running && st.Health == engine.HealthHealthy:
		return true, nil
	case st.Running && st.Health == engine.HealthNone:
		// Without a healthcheck, "up" means it kept running for a moment:
		// a command that fails at once must not count as started.
		return time.Since(st.StartedAt) >= settle, nil
	}
	return false, nil
}

// settle is how long a service without a healthcheck must keep running
// before --wait counts it as up.
var settle = 2 * time.Second

func (r *Runner) unhealthy(ctx context.Context, w waited, state string) error {
	var buf bytes.Buffer
	_ = r.Eng.Logs(ctx, w.container, engine.LogOptions{Tail: "20"}, &buf, &buf)
	return &UnhealthyError{Service: w.service, State: state, LastLogs: buf.String()}
}

func isConflict(err error) bool { return errors.Is(err, engine.ErrConflict) }
