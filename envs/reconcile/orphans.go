package reconcile

import (
	"context"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// orphansOf are the project's containers whose service the plan no longer
// has (removed or renamed in devenv.yaml or a compose file), by name.
func orphansOf(pl *plan.Plan, listed []engine.Object) []engine.Object {
	var out []engine.Object
	for _, o := range listed {
		if pl.Service(o.Labels[labels.Service]) == nil {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
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
