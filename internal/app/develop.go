package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// DevelopRebuild is one rebuild after a change under develop.watch
// rebuild rules: the services, and what their up did (built, recreated).
type DevelopRebuild struct {
	Services []string           `json:"services"`
	Changes  []reconcile.Change `json:"changes"`
}

// Changed are the changes of d's up that changed something (no
// "unchanged"): what a rebuild is said to have done.
func (d DevelopRebuild) Changed() []reconcile.Change {
	return slices.DeleteFunc(slices.Clone(d.Changes), func(ch reconcile.Change) bool { return ch.Action == reconcile.Unchanged })
}

// develop is the compose services' develop.watch, applied by Compose's
// Watch (the executor) in the background.
type develop struct {
	services []string
	done     chan struct{} // closed when the watch ended
	err      error         // why it ended before its context did; set before done is closed
}

// startDevelop plans the project (from devenv.lock, writing nothing, as
// explain does: the compose files are loaded once, by the plan) and
// applies its compose services' develop.watch rules until ctx ends; nil
// when no compose service has any. A service with no running container
// is named: Compose applies its rules once it runs.
func (p *Project) startDevelop(ctx context.Context, running []engine.Object, o WatchOptions) (*develop, error) {
	if len(p.Spec.Compose) == 0 {
		return nil, nil // no compose services: nothing to plan for
	}
	pl, err := p.Plan(ctx, PlanOptions{})
	if err != nil {
		return nil, fmt.Errorf("develop.watch: %w", err)
	}
	services := reconcile.DevelopWatched(pl.Plan)
	if len(services) == 0 {
		return nil, nil
	}
	for _, s := range services {
		if !slices.ContainsFunc(running, func(c engine.Object) bool { return c.Labels[labels.Service] == s }) {
			p.out.Warn("develop.watch of %s: no running container; its rules apply once it runs (`devenv up %s`)", s, s)
		}
	}
	d := &develop{services: services, done: make(chan struct{})}
	r := p.runner(nil)
	go func() {
		defer close(d.done)
		err := r.Watch(ctx, pl.Plan, func(ctx context.Context, svcs []string) error { return p.developRebuild(ctx, svcs, o) })
		if ctx.Err() == nil {
			d.err = err
		}
	}()
	return d, nil
}

// wait waits until the watch ended and is why it ended early (nil when
// its context ended it); nil for no watch.
func (d *develop) wait() error {
	if d == nil {
		return nil
	}
	<-d.done
	return d.err
}

// ended is closed when the watch ended; never for no watch.
func (d *develop) ended() <-chan struct{} {
	if d == nil {
		return nil
	}
	return d.done
}

func (d *develop) String() string { return strings.Join(d.services, ", ") }

// developRebuild builds the services' images again and recreates their
// containers when an image changed: what `devenv up SERVICE --no-deps`
// does (up builds what changed, through devenv's mirrors and cache), for
// the services a rebuild rule's change concerns.
func (p *Project) developRebuild(ctx context.Context, services []string, o WatchOptions) error {
	res, err := p.Up(ctx, UpOptions{Services: services, NoDeps: true})
	if err != nil {
		return err
	}
	if o.DevelopRebuilt != nil {
		o.DevelopRebuilt(DevelopRebuild{Services: services, Changes: res.Changes})
	}
	return nil
}
