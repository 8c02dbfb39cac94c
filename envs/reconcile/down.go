package reconcile

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/images"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// DownOptions steer Down.
type DownOptions struct {
	// Services limits down to these services' containers (and, with
	// Images, their images); the network and volumes stay, as the rest of
	// the project uses them. Empty: the whole project.
	Services []string
	Volumes  bool // also remove the project's named volumes
	Images   bool // also remove the images devenv built for the project
	DryRun   bool // report what would be removed and remove nothing
	// Plan, when the project's plan could be made, has Compose's down
	// stop and remove the containers it lists for the rendered project
	// (pre_stop hooks, stop_grace_period unless the Runner's StopTimeout
	// is set, orphans, with Volumes their anonymous volumes); nil: devenv
	// stops and removes them itself.
	Plan *plan.Plan
}

// Down stops and removes every container, network (and on request volume
// and image) labelled for the project, and nothing else; with Services,
// only those services' containers and images. The networks, volumes and
// images, and the containers Compose would not list, are devenv's to
// remove, after its ownership checks.
func (r *Runner) Down(ctx context.Context, project string, opts DownOptions) ([]Change, error) {
	containers, err := r.projectObjects(ctx, engine.Containers, project)
	if err != nil {
		return nil, err
	}
	if err := r.checkOwned(project, containers); err != nil {
		return nil, err
	}
	if len(opts.Services) > 0 {
		return r.downServices(ctx, project, opts)
	}
	listed := map[engine.Kind][]engine.Object{}
	if opts.Volumes {
		// another clone's volumes hold its data: refuse before removing anything
		vols, err := r.projectObjects(ctx, engine.Volumes, project)
		if err != nil {
			return nil, err
		}
		if err := r.checkOwned(project, vols); err != nil {
			return nil, err
		}
		listed[engine.Volumes] = vols
	}
	nets, err := r.projectObjects(ctx, engine.Networks, project)
	if err != nil {
		return nil, err
	}
	var gone map[string]bool
	if !opts.DryRun {
		if gone, err = r.downThroughCompose(ctx, opts.Plan, containers, opts.Volumes); err != nil {
			return nil, err
		}
	}
	changes, err := r.removeContainersAndNetworks(ctx, containers, gone, nets, opts.DryRun)
	if err != nil {
		return changes, err
	}
	var kinds []engine.Kind
	if opts.Volumes {
		kinds = append(kinds, engine.Volumes)
	}
	if opts.Images {
		kinds = append(kinds, engine.Images)
	}
	for _, k := range kinds {
		objs, ok := listed[k]
		if !ok {
			if objs, err = r.projectObjects(ctx, k, project); err != nil {
				return changes, err
			}
		}
		ch, err := r.removeAll(ctx, k, sortedByName(objs), opts.DryRun)
		changes = append(changes, ch...)
		if err != nil {
			return changes, err
		}
	}
	return changes, nil
}

// downThroughCompose takes down, with the executor's DownProject, the
// containers among objs that Compose's down of pl's rendered project
// lists (its services' and its orphans'), and reports their ids. The
// project it is given declares every network and volume external: devenv
// removes those itself, labelled for the project only and after its
// ownership checks (Compose would remove a volume by its name whatever its
// labels, and a network before the endpoints are released). Without pl,
// or when it does not render, or when the Compose project holds a
// container devenv did not label for this project, devenv removes every
// container itself (a debug line says why).
func (r *Runner) downThroughCompose(ctx context.Context, pl *plan.Plan, objs []engine.Object, volumes bool) (map[string]bool, error) {
	if pl == nil {
		return nil, nil
	}
	proj, err := r.render(pl)
	if err != nil {
		r.debugf("removing with devenv's own engine calls: the project does not render as Compose's: %v", err)
		return nil, nil
	}
	gone := map[string]bool{}
	for _, o := range objs {
		if composeDownLists(proj, o) {
			gone[o.ID] = true
		}
	}
	if len(gone) == 0 {
		return nil, nil
	}
	if err := r.othersOfCompose(ctx, proj.Name, pl.Project, nil); err != nil {
		r.debugf("removing with devenv's own engine calls: %v", err)
		return nil, nil
	}
	down := engine.ProjectDown{Project: allExternal(proj), RemoveOrphans: true, Volumes: volumes, Timeout: r.StopTimeout}
	if err := r.executor().DownProject(ctx, down); err != nil {
		return nil, err
	}
	return gone, nil
}

// composeDownLists reports whether Compose's down of proj with orphans
// removes container o: a container of its Compose project with a config
// hash that is not a one-off (those Compose keeps while they run).
func composeDownLists(proj *types.Project, o engine.Object) bool {
	l := o.Labels
	_, hashed := l[labels.ComposeConfigHash]
	return l[labels.ComposeProject] == proj.Name && hashed && l[labels.ComposeOneoff] != "True"
}

// allExternal is proj with every network and volume external, so that
// Compose's down removes none of them.
func allExternal(proj *types.Project) *types.Project {
	out := *proj
	out.Networks = types.Networks{}
	for k, n := range proj.Networks {
		n.External = true
		out.Networks[k] = n
	}
	if proj.Volumes != nil {
		out.Volumes = types.Volumes{}
		for k, v := range proj.Volumes {
			v.External = true
			out.Volumes[k] = v
		}
	}
	return &out
}

// removeContainersAndNetworks stops and removes each container on its own
// (side by side), and removes the networks as soon as every container has
// stopped: a stopped container holds no endpoint on its network, so the
// engine's slow network removal need not wait for the container removals.
// The networks stay when a container could not be stopped. The containers
// whose ids are in gone were removed already (by Compose): they are
// reported with the others.
func (r *Runner) removeContainersAndNetworks(ctx context.Context, containers []engine.Object, gone map[string]bool, nets []engine.Object, dryRun bool) ([]Change, error) {
	containers, nets = sortedByName(containers), sortedByName(nets)
	if dryRun {
		cch, _ := r.removeAll(ctx, engine.Containers, containers, true)
		nch, _ := r.removeAll(ctx, engine.Networks, nets, true)
		return append(cch, nch...), nil
	}
	stopErrs, rmErrs := make([]error, len(containers)), make([]error, len(containers))
	var stopped, all sync.WaitGroup
	stopped.Add(len(containers))
	for i, o := range containers {
		if gone[o.ID] {
			stopped.Done()
			continue
		}
		all.Go(func() {
			stopErrs[i] = r.stopIfRunning(ctx, o)
			stopped.Done()
			if stopErrs[i] == nil {
				rmErrs[i] = r.removeObject(ctx, engine.Containers, engine.Object{Kind: o.Kind, ID: o.ID, Name: o.Name})
			}
		})
	}
	var (
		nch  []Change
		nerr error
	)
	all.Go(func() {
		stopped.Wait()
		if cmp.Or(stopErrs...) == nil {
			nch, nerr = r.removeAll(ctx, engine.Networks, nets, false)
		}
	})
	all.Wait()
	var changes []Change
	for i, o := range containers {
		if stopErrs[i] == nil && rmErrs[i] == nil {
			changes = append(changes, Change{Service: o.Labels[labels.Service], Action: Removed, Detail: string(engine.Containers) + " " + o.Name})
		}
	}
	return append(changes, nch...), cmp.Or(cmp.Or(stopErrs...), cmp.Or(rmErrs...), nerr)
}

func (r *Runner) stopIfRunning(ctx context.Context, o engine.Object) error {
	if o.State != "running" {
		return nil
	}
	if err := r.Eng.Stop(ctx, o.ID, r.stopTimeout()); err != nil && !isNotFound(err) {
		return err
	}
	return nil
}

func sortedByName(objs []engine.Object) []engine.Object {
	sort.Slice(objs, func(i, j int) bool { return objs[i].Name < objs[j].Name })
	return objs
}

func (r *Runner) downServices(ctx context.Context, project string, opts DownOptions) ([]Change, error) {
	sel := Selection{Project: project, Services: opts.Services, DryRun: opts.DryRun, Timeout: r.StopTimeout, Plan: opts.Plan}
	changes, err := r.Rm(ctx, sel, true)
	if err != nil || !opts.Images {
		return changes, err
	}
	imgs, err := r.projectObjects(ctx, engine.Images, project)
	if err != nil {
		return changes, err
	}
	var mine []engine.Object
	for _, o := range imgs {
		for _, s := range opts.Services {
			if belongsTo(o.Labels[labels.Service], s) {
				mine = append(mine, o)
				break
			}
		}
	}
	ch, err := r.removeAll(ctx, engine.Images, mine, opts.DryRun)
	return append(changes, ch...), err
}

// removeAll removes objs, side by side: stopping a container waits for its
// process to end, and one after another those waits add up. The changes
// list, in objs' order, every object removed; the error is the first one.
func (r *Runner) removeAll(ctx context.Context, k engine.Kind, objs []engine.Object, dryRun bool) ([]Change, error) {
	if k == engine.Images && !dryRun {
		return r.removeImages(ctx, objs)
	}
	errs := make([]error, len(objs))
	if !dryRun {
		var wg sync.WaitGroup
		for i, o := range objs {
			wg.Go(func() { errs[i] = r.removeObject(ctx, k, o) })
		}
		wg.Wait()
	}
	var changes []Change
	var first error
	for i, o := range objs {
		if errs[i] != nil {
			first = cmp.Or(first, errs[i])
			continue
		}
		changes = append(changes, Change{Service: o.Labels[labels.Service], Action: Removed, Detail: string(k) + " " + o.Name})
	}
	return changes, first
}

// removeImages removes the project's images one after another, newest
// first, so an image goes before the one it was built on (side by side,
// the parent's removal raced its child's: "image has dependent child
// images"). An image still in use after the others are gone (another
// image is built on it) is kept and said, as Compose keeps it.
func (r *Runner) removeImages(ctx context.Context, objs []engine.Object) ([]Change, error) {
	order := slices.Clone(objs)
	slices.SortStableFunc(order, func(a, b engine.Object) int { return b.Created.Compare(a.Created) })
	var changes []Change
	var retry []engine.Object
	for pass := 0; pass < 2; pass++ {
		retry = retry[:0]
		for _, o := range order {
			err := r.removeImage(ctx, o)
			switch {
			case errors.Is(err, engine.ErrConflict):
				retry = append(retry, o)
			case err != nil:
				return changes, err
			default:
				changes = append(changes, Change{Service: o.Labels[labels.Service], Action: Removed, Detail: string(engine.Images) + " " + o.Name})
			}
		}
		order = slices.Clone(retry)
	}
	for _, o := range retry {
		r.Out.Warn("kept image %s (%.19s): it is still in use (another image is built on it or a container uses it)", cmp.Or(o.Name, "<untagged>"), o.ID)
	}
	return changes, nil
}

// removeImage removes an image devenv built. One that also carries the
// names Compose gives a build (image:, build.tags) loses devenv's own
// names only: Compose's down --rmi local keeps an image named by image:,
// and removed by its id, the engine refuses an image of several names.
func (r *Runner) removeImage(ctx context.Context, o engine.Object) error {
	own := slices.DeleteFunc(slices.Clone(o.Tags), func(t string) bool { return !strings.HasPrefix(t, images.TagPrefix) })
	if len(o.Tags) < 2 || len(own) == 0 || len(own) == len(o.Tags) {
		return r.removeObject(ctx, engine.Images, o)
	}
	for _, t := range own {
		if err := r.Eng.Remove(ctx, engine.Images, t, false); err != nil && !isNotFound(err) {
			return err
		}
	}
	return nil
}

func (r *Runner) removeObject(ctx context.Context, k engine.Kind, o engine.Object) error {
	if k == engine.Networks {
		return r.removeNetwork(ctx, o)
	}
	if k == engine.Containers {
		if err := r.stopIfRunning(ctx, o); err != nil {
			return err
		}
	}
	if err := r.Eng.Remove(ctx, k, o.ID, false); err != nil && !isNotFound(err) {
		return err
	}
	return nil
}

// endpointsGrace is how long removing a network waits for the engine to
// release the endpoints of containers just removed.
var endpointsGrace = 10 * time.Second

// removeNetwork removes a network, waiting while the engine still counts
// endpoints of the containers removed just before (seen on Docker 20.10
// after removing many containers at once: "has active endpoints").
func (r *Runner) removeNetwork(ctx context.Context, o engine.Object) error {
	deadline := time.Now().Add(endpointsGrace)
	for {
		err := r.Eng.Remove(ctx, engine.Networks, o.ID, false)
		switch {
		case err == nil || isNotFound(err):
			return nil
		case !strings.Contains(err.Error(), "active endpoints") || time.Now().After(deadline):
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
