package reconcile

import (
	"context"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// orphansOf are the project's containers whose service the project no
// longer has (removed or renamed in devenv.yaml or a compose file), by
// name. As with Compose, a service of a compose profile not enabled now
// is still the project's: its container is no orphan, up leaves it.
func orphansOf(ctx context.Context, pl *plan.Plan, listed []engine.Object) ([]engine.Object, error) {
	defined, err := definedServices(ctx, pl)
	if err != nil {
		return nil, err
	}
	var out []engine.Object
	for _, o := range listed {
		if !defined[o.Labels[labels.Service]] {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// definedServices are the services the plan runs and those of every
// compose profile (what Compose's DisabledServices hold).
func definedServices(ctx context.Context, pl *plan.Plan) (map[string]bool, error) {
	names := map[string]bool{}
	for _, s := range pl.Services {
		names[s.Name] = true
	}
	p := pl.Project0
	if p == nil || len(p.Compose) == 0 {
		return names, nil
	}
	all, err := pl.Compose.For(p.Compose, p.Dir, p.Name).Services(ctx, []string{"*"})
	if err != nil {
		return nil, err
	}
	for _, s := range all {
		names[s.Name] = true
	}
	return names, nil
}

// warnOrphans says what Compose says about orphans, and how to remove them.
func (r *Runner) warnOrphans(orphans []engine.Object) {
	if r.Out == nil {
		return
	}
	names := make([]string, len(orphans))
	for i, o := range orphans {
		names[i] = o.Name
	}
	r.Out.Warn("found orphan containers (%s) for this project: if you removed or renamed their service in devenv.yaml or a compose file, "+
		"run this command with --remove-orphans to remove them", strings.Join(names, ", "))
}

// removeOrphans stops and removes the orphan containers, one after another.
func (r *Runner) removeOrphans(ctx context.Context, orphans []engine.Object) ([]Change, error) {
	var changes []Change
	for _, o := range orphans {
		if err := r.removeContainer(ctx, o.ID); err != nil {
			return changes, err
		}
		changes = append(changes, Change{Service: o.Labels[labels.Service], Action: Removed, Detail: "orphan container " + o.Name})
	}
	return changes, nil
}
