package reconcile

import (
	"context"
	"fmt"
	"slices"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// handover is the part of a verb's containers that goes to the executor
// (Compose): the rendered project, the services it is given, and which of
// the containers are theirs.
type handover struct {
	proj     *types.Project
	services []string
	picked   []bool // picked[i]: the i-th container went to Compose
}

// mine reports whether the i-th container went to Compose.
func (h handover) mine(i int) bool { return i < len(h.picked) && h.picked[i] }

// handOver renders pl and picks, among objs, the containers Compose would
// find as services of that project and for which pick holds. ok is false,
// and devenv's own engine calls do the verb ("stopping", "starting",
// "removing": a debug line says why), when pl is nil or does not render,
// nothing is picked, or Compose would also act on a container of those
// services that devenv did not label for this project.
func (r *Runner) handOver(ctx context.Context, verb string, pl *plan.Plan, objs []engine.Object, pick func(engine.Object) bool) (h handover, ok bool) {
	if pl == nil {
		return handover{}, false
	}
	proj, err := r.render(pl)
	if err != nil {
		r.debugf("%s with devenv's own engine calls: the project does not render as Compose's: %v", verb, err)
		return handover{}, false
	}
	h = handover{proj: proj, picked: make([]bool, len(objs))}
	for i, o := range objs {
		if !pick(o) || !composeLists(proj, o) {
			continue
		}
		h.picked[i] = true
		if s := o.Labels[labels.ComposeService]; !slices.Contains(h.services, s) {
			h.services = append(h.services, s)
		}
	}
	if len(h.services) == 0 {
		return handover{}, false
	}
	if err := r.othersOfCompose(ctx, proj.Name, pl.Project, h.services); err != nil {
		r.debugf("%s with devenv's own engine calls: %v", verb, err)
		return handover{}, false
	}
	return h, true
}

// composeLists reports whether Compose's stop, start or rm would find
// container o as its service's in proj: the labels Compose filters on.
func composeLists(proj *types.Project, o engine.Object) bool {
	l := o.Labels
	if _, ok := proj.Services[l[labels.ComposeService]]; !ok {
		return false
	}
	_, hashed := l[labels.ComposeConfigHash]
	return l[labels.ComposeProject] == proj.Name && l[labels.ComposeOneoff] == "False" && hashed
}

// othersOfCompose is an error naming a container Compose would act on with
// these services (nil: with any service, as down does) that devenv did not
// label for project (a `docker compose -p` project of the same name):
// devenv touches only its own.
func (r *Runner) othersOfCompose(ctx context.Context, composeProject, project string, services []string) error {
	objs, err := r.Eng.List(ctx, engine.Containers, map[string]string{labels.ComposeProject: composeProject})
	if err != nil {
		return err
	}
	for _, o := range objs {
		if o.Labels[labels.Project] != project && (services == nil || slices.Contains(services, o.Labels[labels.ComposeService])) {
			return fmt.Errorf("container %s is in Compose project %s but not labelled for devenv's project %s", o.Name, composeProject, project)
		}
	}
	return nil
}

// OthersOfCompose refuses, for commands that reach containers through
// Compose's labels (the SDK's exec and logs), a container of the Compose
// project named project, of one of services (nil: any), that devenv did
// not label for its project of that name.
func (r *Runner) OthersOfCompose(ctx context.Context, project string, services []string) error {
	if err := r.othersOfCompose(ctx, project, project, services); err != nil {
		return fmt.Errorf("%w: devenv reaches only its own containers; give one of the two projects another name (devenv.yaml's name: or -p, or docker compose -p)", err)
	}
	return nil
}

func (r *Runner) debugf(format string, args ...any) {
	if r.Out != nil {
		r.Out.Debugf(format, args...)
	}
}
