package reconcile

import (
	"context"
	"fmt"
	"sort"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
)

// repairNetwork leaves one network of the project's name where there are
// several (an engine before API 1.44 lets two creators race, as two old
// devenvs or a devenv killed mid-way and a docker command could). Only
// networks devenv labelled for this project, in this directory, are
// removed; the one most of the project's containers are attached to stays
// (the oldest when none is), and containers on a removed one are put back
// on the kept one (removed here, created again by up), as after a network
// removed by hand. A duplicate
// devenv did not label is not touched: the error names it.
func (r *Runner) repairNetwork(ctx context.Context, pl *plan.Plan, containers []engine.Object) error {
	all, err := r.Eng.List(ctx, engine.Networks, nil)
	if err != nil {
		return err
	}
	same, err := r.duplicateNetworks(pl, all)
	if err != nil {
		return err
	}
	if len(same) < 2 {
		return nil
	}
	keep := keptNetwork(same, containers, pl.Network)
	for _, n := range same {
		if n.ID == keep.ID {
			continue
		}
		for _, c := range containers {
			if c.NetworkIDs[pl.Network] == n.ID { // up makes it again on the kept network
				if err := r.removeContainer(ctx, c.ID); err != nil {
					return fmt.Errorf("removing container %s from a duplicate of network %s: %w", c.Name, n.Name, err)
				}
			}
		}
		if err := r.removeNetwork(ctx, n); err != nil {
			return fmt.Errorf("removing a duplicate of network %s (id %s): %w", n.Name, n.ID, err)
		}
		if r.Out != nil {
			r.Out.Warn("removed a duplicate of network %s (id %.12s); kept %.12s", n.Name, n.ID, keep.ID)
		}
	}
	return nil
}

// keptNetwork is the duplicate most containers use, else the oldest.
func keptNetwork(same []engine.Object, containers []engine.Object, name string) engine.Object {
	uses := map[string]int{}
	for _, c := range containers {
		if id := c.NetworkIDs[name]; id != "" {
			uses[id]++
		}
	}
	sort.SliceStable(same, func(i, j int) bool {
		if uses[same[i].ID] != uses[same[j].ID] {
			return uses[same[i].ID] > uses[same[j].ID]
		}
		return same[i].Created.Before(same[j].Created)
	})
	return same[0]
}
