package reconcile

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// stopThroughCompose stops the running containers among objs that Compose
// lists as services of pl's project, with the executor's StopProject:
// Compose runs their services' pre_stop hooks and gives each container
// its service's stop_grace_period, or timeout when it is set (-t). It
// returns objs with those containers marked exited; the others (a service
// the plan no longer has, a container Compose would not list) are left to
// devenv's own engine calls, as is everything when pl is nil or does not
// render, or when Compose would also stop a container devenv did not
// label for this project.
func (r *Runner) stopThroughCompose(ctx context.Context, pl *plan.Plan, objs []engine.Object, timeout time.Duration) ([]engine.Object, error) {
	if pl == nil {
		return objs, nil
	}
	proj, err := r.render(pl)
	if err != nil {
		r.debugf("stopping with devenv's own engine calls: the project does not render as Compose's: %v", err)
		return objs, nil
	}
	out := slices.Clone(objs)
	var services []string
	for i, o := range out {
		if o.State != "running" || !composeLists(proj, o) {
			continue
		}
		if s := o.Labels[labels.ComposeService]; !slices.Contains(services, s) {
			services = append(services, s)
		}
		out[i].State = "exited"
	}
	if len(services) == 0 {
		return objs, nil
	}
	if err := r.othersOfCompose(ctx, proj.Name, pl.Project, services); err != nil {
		r.debugf("stopping with devenv's own engine calls: %v", err)
		return objs, nil
	}
	stop := engine.ProjectStop{Project: proj, Services: services}
	if timeout > 0 {
		stop.Timeout = &timeout
	}
	if err := r.executor().StopProject(ctx, stop); err != nil {
		return objs, err
	}
	return out, nil
}

// composeLists reports whether Compose's stop would find container o as
// its service's in proj: the labels Compose filters on.
func composeLists(proj *types.Project, o engine.Object) bool {
	l := o.Labels
	if _, ok := proj.Services[l[labels.ComposeService]]; !ok {
		return false
	}
	_, hashed := l[labels.ComposeConfigHash]
	return l[labels.ComposeProject] == proj.Name && l[labels.ComposeOneoff] == "False" && hashed
}

// othersOfCompose is an error naming a container Compose would stop with
// these services that devenv did not label for project (a `docker
// compose -p` project of the same name): devenv touches only its own.
func (r *Runner) othersOfCompose(ctx context.Context, composeProject, project string, services []string) error {
	objs, err := r.Eng.List(ctx, engine.Containers, map[string]string{labels.ComposeProject: composeProject})
	if err != nil {
		return err
	}
	for _, o := range objs {
		if o.Labels[labels.Project] != project && slices.Contains(services, o.Labels[labels.ComposeService]) {
			return fmt.Errorf("container %s is in Compose project %s but not labelled for devenv's project %s", o.Name, composeProject, project)
		}
	}
	return nil
}

func (r *Runner) debugf(format string, args ...any) {
	if r.Out != nil {
		r.Out.Debugf(format, args...)
	}
}
