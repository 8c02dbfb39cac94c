package reconcile

import (
	"context"
	"slices"
	"time"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
)

// stopThroughCompose stops the running containers among objs that Compose
// lists as services of pl's project, with the executor's StopProject:
// Compose runs their services' pre_stop hooks and gives each container
// its service's stop_grace_period, or timeout when it is set (-t; 0
// kills at once). It returns objs with those containers marked exited;
// the others (a service the plan no longer has, a container Compose would
// not list) are left to devenv's own engine calls, as is everything when
// pl is nil or does not render, or when Compose would also stop a
// container devenv did not label for this project.
func (r *Runner) stopThroughCompose(ctx context.Context, pl *plan.Plan, objs []engine.Object, timeout *time.Duration) ([]engine.Object, error) {
	h, ok := r.handOver(ctx, "stopping", pl, objs, func(o engine.Object) bool { return o.State == "running" })
	if !ok {
		return objs, nil
	}
	if err := r.executor().StopProject(ctx, engine.ProjectStop{Project: h.proj, Services: h.services, Timeout: timeout}); err != nil {
		return objs, err
	}
	out := slices.Clone(objs)
	for i := range out {
		if h.mine(i) {
			out[i].State = "exited"
		}
	}
	return out, nil
}
