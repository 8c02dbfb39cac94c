package reconcile

import (
	"context"
	"sort"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// DownOptions steer Down.
type DownOptions struct {
	Volumes bool // also remove the project's named volumes
	Images  bool // also remove the images devenv built for the project
}

// Down stops and removes every container, network (and on request volume
// and image) labelled for the project, and nothing else.
func (r *Runner) Down(ctx context.Context, project string, opts DownOptions) ([]Change, error) {
	var changes []Change
	kinds := []engine.Kind{engine.Containers, engine.Networks}
	if opts.Volumes {
		kinds = append(kinds, engine.Volumes)
	}
	if opts.Images {
		kinds = append(kinds, engine.Images)
	}
	for _, k := range kinds {
		objs, err := r.projectObjects(ctx, k, project)
		if err != nil {
			return changes, err
		}
		sort.Slice(objs, func(i, j int) bool { return objs[i].Name < objs[j].Name })
		for _, o := range objs {
			if err := r.removeObject(ctx, k, o); err != nil {
				return changes, err
			}
			changes = append(changes, Change{Service: o.Labels[labels.Service], Action: Removed, Detail: string(k) + " " + o.Name})
		}
	}
	return changes, nil
}

func (r *Runner) removeObject(ctx context.Context, k engine.Kind, o engine.Object) error {
	if k == engine.Containers && o.State == "running" {
		if err := r.Eng.Stop(ctx, o.ID, 10*time.Second); err != nil && !isNotFound(err) {
			return err
		}
	}
	if err := r.Eng.Remove(ctx, k, o.ID, false); err != nil && !isNotFound(err) {
		return err
	}
	return nil
}
