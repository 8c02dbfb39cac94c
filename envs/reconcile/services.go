package reconcile

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/labels"
)

// Actions of the per-service verbs.
const (
	Stopped   = "stopped"
	Restarted = "restarted"
	Skipped   = "skipped"
)

// Selection is the containers a per-service verb (stop, start, restart,
// rm, down SERVICE...) acts on.
type Selection struct {
	Project string
	// Services in dependency order (a service after what it depends on);
	// empty selects every container of the project. A Spark service's
	// standalone workers go with it.
	Services []string
	// Timeout is how long a stop waits before killing (-t; 0 kills at
	// once); nil: each service's stop_grace_period, else 10s.
	Timeout *time.Duration
	DryRun  bool // report what would change and change nothing
	// Plan, when the project's plan could be made, has the executor stop,
	// start and remove the containers (Compose's stop, start and rm:
	// pre_stop and post_start hooks, each service's stop_grace_period
	// unless Timeout is set, depends_on conditions); nil: devenv's own
	// engine calls.
	Plan *plan.Plan
	// BeforeStart, when set, may refuse to start these containers (the
	// ones Start would start, every one for Restart) before any is
	// stopped or started; dry runs skip it.
	BeforeStart func(ctx context.Context, starting []engine.Object) error
}

func (s Selection) beforeStart(ctx context.Context, starting []engine.Object) error {
	if s.BeforeStart == nil || s.DryRun || len(starting) == 0 {
		return nil
	}
	return s.BeforeStart(ctx, starting)
}

func (s Selection) timeout() time.Duration { return orTenSeconds(s.Timeout) }

// selected lists the selection's containers in dependency order (by the
// order of Services, then by name); with no services, every container of
// the project by name.
func (r *Runner) selected(ctx context.Context, sel Selection) ([]engine.Object, error) {
	objs, err := r.projectObjects(ctx, engine.Containers, sel.Project)
	if err != nil {
		return nil, err
	}
	if err := r.checkOwned(sel.Project, objs); err != nil {
		return nil, err
	}
	rank := func(o engine.Object) int {
		for i, s := range sel.Services {
			if belongsTo(o.Labels[labels.Service], s) {
				return i
			}
		}
		return -1
	}
	var out []engine.Object
	for _, o := range objs {
		if len(sel.Services) == 0 || rank(o) >= 0 {
			out = append(out, o)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank(out[i]), rank(out[j]); ri != rj {
			return ri < rj
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// belongsTo says whether a container labelled with service label belongs
// to service: its own container, or one of its standalone workers
// (SERVICE-worker-N, named by internal/sparkconf's topology).
func belongsTo(label, service string) bool {
	if label == service {
		return true
	}
	n, ok := strings.CutPrefix(label, service+"-worker-")
	if !ok {
		return false
	}
	_, err := strconv.Atoi(n)
	return err == nil
}

// Stop stops the selection's running containers, dependents first, and
// keeps them (start brings them back as they were): through Compose when
// sel.Plan is set, the rest with devenv's own engine calls.
func (r *Runner) Stop(ctx context.Context, sel Selection) ([]Change, error) {
	objs, err := r.selected(ctx, sel)
	if err != nil {
		return nil, err
	}
	left := objs
	if !sel.DryRun {
		if left, err = r.stopThroughCompose(ctx, sel.Plan, objs, sel.Timeout); err != nil {
			return nil, err
		}
	}
	var changes []Change
	for i := len(objs) - 1; i >= 0; i-- {
		o := objs[i]
		if o.State != "running" {
			continue
		}
		if !sel.DryRun && left[i].State == "running" {
			if err := r.Eng.Stop(ctx, o.ID, sel.timeout()); err != nil && !isNotFound(err) {
				return changes, fmt.Errorf("stop %s: %w", o.Name, err)
			}
		}
		changes = append(changes, Change{Service: o.Labels[labels.Service], Action: Stopped, Detail: "container " + o.Name})
	}
	return changes, nil
}

// Start starts the selection's stopped containers, dependencies first:
// through Compose when sel.Plan is set (depends_on conditions, post_start
// hooks), the rest with devenv's own engine calls. A named service
// without a container is an error that says to run up: start never
// creates anything.
func (r *Runner) Start(ctx context.Context, sel Selection) ([]Change, error) {
	objs, err := r.selected(ctx, sel)
	if err != nil {
		return nil, err
	}
	if err := missing(objs, sel); err != nil {
		return nil, err
	}
	var starting []engine.Object
	for _, o := range objs {
		if o.State != "running" {
			starting = append(starting, o)
		}
	}
	if err := sel.beforeStart(ctx, starting); err != nil {
		return nil, err
	}
	if !sel.DryRun {
		if err := r.startAll(ctx, sel.Plan, starting); err != nil {
			return nil, err
		}
	}
	return changesOf(starting, Started), nil
}

// Restart stops the selection's running containers (dependents first) and
// starts every one of them again (dependencies first), both through
// Compose when sel.Plan is set.
func (r *Runner) Restart(ctx context.Context, sel Selection) ([]Change, error) {
	objs, err := r.selected(ctx, sel)
	if err != nil {
		return nil, err
	}
	if err := missing(objs, sel); err != nil {
		return nil, err
	}
	if err := sel.beforeStart(ctx, objs); err != nil {
		return nil, err
	}
	if _, err := r.Stop(ctx, sel); err != nil {
		return nil, err
	}
	if !sel.DryRun {
		if err := r.startAll(ctx, sel.Plan, objs); err != nil {
			return nil, err
		}
	}
	return changesOf(objs, Restarted), nil
}

// startAll starts objs (in dependency order): those Compose lists as
// services of pl's project with the executor's StartProject, the others
// (or all, without pl) with devenv's own engine calls.
func (r *Runner) startAll(ctx context.Context, pl *plan.Plan, objs []engine.Object) error {
	h, ok := r.handOver(ctx, "starting", pl, objs, func(engine.Object) bool { return true })
	if ok {
		if err := r.executor().StartProject(ctx, engine.ProjectStart{Project: h.proj, Services: h.services}); err != nil {
			return err
		}
	}
	for i, o := range objs {
		if h.mine(i) {
			continue
		}
		if err := r.Eng.Start(ctx, o.ID); err != nil {
			return fmt.Errorf("start %s: %w", o.Name, err)
		}
	}
	return nil
}

func changesOf(objs []engine.Object, action string) []Change {
	var changes []Change
	for _, o := range objs {
		changes = append(changes, Change{Service: o.Labels[labels.Service], Action: action, Detail: "container " + o.Name})
	}
	return changes
}

// Rm removes the selection's stopped containers; running ones are left
// (and reported as skipped) unless stop is set, which stops them first.
// With sel.Plan, Compose's rm removes (and stops) the containers it lists
// as services of the project; devenv removes the others itself.
func (r *Runner) Rm(ctx context.Context, sel Selection, stop bool) ([]Change, error) {
	objs, err := r.selected(ctx, sel)
	if err != nil {
		return nil, err
	}
	var h handover
	if !sel.DryRun {
		if h, err = r.removeThroughCompose(ctx, sel, objs, stop); err != nil {
			return nil, err
		}
	}
	var changes []Change
	for i := len(objs) - 1; i >= 0; i-- {
		o := objs[i]
		svc := o.Labels[labels.Service]
		if o.State == "running" && !stop {
			changes = append(changes, Change{Service: svc, Action: Skipped, Detail: "container " + o.Name + " is running (devenv rm --stop, or devenv stop first)"})
			continue
		}
		if !sel.DryRun && !h.mine(i) {
			if err := r.removeObject(ctx, engine.Containers, o); err != nil {
				return changes, fmt.Errorf("remove %s: %w", o.Name, err)
			}
		}
		changes = append(changes, Change{Service: svc, Action: Removed, Detail: "container " + o.Name})
	}
	return changes, nil
}

// removeThroughCompose has the executor's RemoveProject remove the
// containers among objs that Compose lists as services of sel.Plan's
// project: the stopped ones, and with stop the running ones too (stopped
// first, with sel.Timeout when set). It reports which of objs it took.
func (r *Runner) removeThroughCompose(ctx context.Context, sel Selection, objs []engine.Object, stop bool) (handover, error) {
	h, ok := r.handOver(ctx, "removing", sel.Plan, objs, func(o engine.Object) bool { return stop || o.State != "running" })
	if !ok {
		return handover{}, nil
	}
	rm := engine.ProjectRemove{Project: h.proj, Services: h.services, Stop: stop, Timeout: sel.Timeout}
	if err := r.executor().RemoveProject(ctx, rm); err != nil {
		return handover{}, err
	}
	return h, nil
}

// missing is an error naming the selected services that have no container.
func missing(objs []engine.Object, sel Selection) error {
	var none []string
	for _, s := range sel.Services {
		found := false
		for _, o := range objs {
			found = found || belongsTo(o.Labels[labels.Service], s)
		}
		if !found {
			none = append(none, s)
		}
	}
	if len(none) == 0 {
		return nil
	}
	return exitcode.Newf(exitcode.Failure, "no container for %s: devenv up %s creates it", strings.Join(none, ", "), strings.Join(none, " "))
}
