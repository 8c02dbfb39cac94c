package reconcile

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
)

// ErrNoDevelopWatch is Watch's answer for a plan without develop.watch
// rules.
var ErrNoDevelopWatch = errors.New("no compose service has develop.watch rules")

// DevelopWatched are the compose services of pl with develop.watch rules,
// sorted.
func DevelopWatched(pl *plan.Plan) []string {
	var out []string
	for _, s := range pl.Services {
		if s.Compose == nil || s.Compose.Config == nil {
			continue
		}
		if d := s.Compose.Config.Service.Develop; d != nil && len(d.Watch) > 0 {
			out = append(out, s.Name)
		}
	}
	slices.Sort(out)
	return out
}

// Watch applies the develop.watch rules of pl's compose services with the
// executor (Compose's Watch) on the project as up renders it, until ctx
// ends. rebuild is devenv's own rebuild of services (their images built
// again, their containers recreated): the executor hands it the services
// a rebuild rule's change concerns. Compose finds the containers by the
// project's name, so a container of a `docker compose -p` project of that
// name that devenv did not label for pl's project refuses the watch, as
// it refuses a stop through Compose.
func (r *Runner) Watch(ctx context.Context, pl *plan.Plan, rebuild func(context.Context, []string) error) error {
	services := DevelopWatched(pl)
	if len(services) == 0 {
		return ErrNoDevelopWatch
	}
	w, ok := r.executor().(engine.Watcher)
	if !ok {
		return fmt.Errorf("develop.watch of %v: this engine's executor does not apply develop.watch rules", services)
	}
	proj, err := r.render(pl)
	if err != nil {
		return err
	}
	if err := r.othersOfCompose(ctx, proj.Name, pl.Project, services); err != nil {
		return fmt.Errorf("develop.watch: %w, and Compose's watch would sync into it too\n\thint: remove that project (`docker compose -p %s down`) or give devenv's project another name", err, proj.Name)
	}
	return w.WatchProject(ctx, engine.ProjectWatch{Project: proj, Services: services, Rebuild: rebuild})
}
