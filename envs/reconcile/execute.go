package reconcile

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/hashicorp/go-multierror"
)

// decision is what up does to one service's container: the one decision
// that both up and its dry run make, before anything changes.
type decision struct {
	svc    *plan.Service
	action string // Created, Recreated, Started or Unchanged
	detail string
}

func (d decision) change() Change {
	return Change{Service: d.svc.Name, Action: d.action, Detail: d.detail}
}

// render is the plan as the Compose project the executor runs: devenv made
// the project network and volumes (with its ownership checks and repairs),
// so they are external; every container carries the project directory's
// label (outside Compose's config hash: moving the project changes no
// container); a compose service with build: runs the image devenv built.
func (r *Runner) render(pl *plan.Plan) (*types.Project, error) {
	proj, err := project.FromPlan(pl, project.Options{WorkingDir: r.projectDir(), External: true, ComposeVersion: r.ComposeVersion})
	if err != nil {
		return nil, err
	}
	dir := r.projectDir()
	for _, ps := range pl.Services {
		s, ok := proj.Services[ps.Name]
		if !ok {
			continue
		}
		if dir != "" {
			s.CustomLabels = s.CustomLabels.Add(labels.Dir, dir)
		}
		// env_file variables are in environment already: Compose's CLI drops
		// the file references before hashing and creating, so devenv does,
		// or the two would recreate each other's containers
		s.EnvFiles = nil
		if ps.Build != nil && s.Build != nil {
			// a compose build: devenv built it (images/), as the plan tags it
			s.Image = ps.Image
		}
		proj.Services[ps.Name] = s
	}
	return proj, nil
}

// decide compares each selected service's rendered config with its
// container (existing: the project's containers by name, one listing).
// A container whose Compose config hash is the service's is unchanged (or
// started); one made by devenv before Compose ran its projects carries
// "devenv-" and devenv's own hash, and is unchanged while that hash is
// the plan's, so an upgrade of devenv recreates no running container.
//
// As Compose does, a container is also recreated when the image its
// service names is another one now (images: each ref's current id, from
// currentImages) than the one it was made from (Compose's
// com.docker.compose.image label): a tag pulled or built again.
func (r *Runner) decide(proj *types.Project, svcs []*plan.Service, existing map[string]engine.Object, net projectNet, images map[string]string, opts UpOptions) ([]decision, error) {
	out := make([]decision, 0, len(svcs))
	for _, s := range svcs {
		svc := proj.Services[s.Name]
		d := decision{svc: s, detail: "container " + svc.ContainerName}
		cur, ok := existing[svc.ContainerName]
		same, err := r.sameConfig(svc, s, cur)
		if err != nil {
			return nil, fmt.Errorf("service %s: %w", s.Name, err)
		}
		switch {
		case !ok:
			d.action = Created
		case opts.ForceRecreate || !same:
			d.action = Recreated
		case imageChanged(cur, images[s.Image]):
			d.action, d.detail = Recreated, "its image "+s.Image+" is another one now ("+shortID(images[s.Image])+"); recreated from it"
		case !attached(cur, project.NetworkName(proj, svc), net):
			d.action, d.detail = Recreated, "its network "+net.name+" was removed or disconnected; recreated on the project's network"
		case cur.State == "running" || opts.NoStart:
			d.action = Unchanged
		case legacyHash(cur):
			d.action, d.detail = Recreated, "stopped container made by an earlier devenv; made again by Compose"
		default:
			d.action = Started
		}
		out = append(out, d)
	}
	return out, nil
}

// sameConfig reports whether cur was made from s's rendered config svc.
func (r *Runner) sameConfig(svc types.ServiceConfig, s *plan.Service, cur engine.Object) (bool, error) {
	if legacyHash(cur) {
		return cur.Labels[labels.ConfigHash] == s.ConfigHash, nil
	}
	h, err := r.executor().ServiceHash(svc)
	if err != nil {
		return false, err
	}
	return cur.Labels[labels.ComposeConfigHash] == h, nil
}

// composeImageLabel is Compose's label of the id of the image a container
// was made from (api.ImageDigestLabel).
const composeImageLabel = "com.docker.compose.image"

// imageChanged reports whether cur was made from another image than id,
// its service's image now; "" (not known yet: to be pulled or built) is
// no change, nor is a container without Compose's label.
func imageChanged(cur engine.Object, id string) bool {
	made := cur.Labels[composeImageLabel]
	return id != "" && made != "" && made != id && !legacyHash(cur)
}

// currentImages is the current id of the image of each selected service
// whose container carries Compose's image label (one engine call per
// image, none for a project without such containers).
func (r *Runner) currentImages(ctx context.Context, proj *types.Project, svcs []*plan.Service, existing map[string]engine.Object) (map[string]string, error) {
	out := map[string]string{}
	for _, s := range svcs {
		cur, ok := existing[proj.Services[s.Name].ContainerName]
		if _, done := out[s.Image]; !ok || done || cur.Labels[composeImageLabel] == "" {
			continue
		}
		id, err := r.Eng.ImageID(ctx, s.Image)
		if err != nil {
			return nil, fmt.Errorf("service %s: %w", s.Name, err)
		}
		out[s.Image] = id
	}
	return out, nil
}

func shortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	return id[:min(12, len(id))]
}

// legacyHash: the container was made by devenv's own reconciler, before
// the Compose SDK ran devenv's projects.
func legacyHash(cur engine.Object) bool {
	return strings.HasPrefix(cur.Labels[labels.ComposeConfigHash], "devenv-")
}

// attached reports whether container cur, planned on network, refers to
// the project network's current id (a network removed behind devenv's
// back leaves a container on the old id, or on none). A container never
// started has no endpoint yet, so the engine lists it on the network with
// no id: it is attached, and up starts it, as Compose does.
func attached(cur engine.Object, network string, net projectNet) bool {
	if network == "" || network != net.name || net.id == "" || cur.NetworkIDs == nil {
		return true
	}
	id, listed := cur.NetworkIDs[network]
	return (listed && id == "") || id == net.id
}

// execute has the executor converge the services whose decision is not
// Unchanged, and only those (the rest of the project is left as it is),
// after devenv's checks on the containers it will make.
func (r *Runner) execute(ctx context.Context, proj *types.Project, pl *plan.Plan, ds []decision, opts UpOptions) ([]Change, error) {
	if err := r.checkCreates(ctx, proj, ds); err != nil {
		return nil, err
	}
	run, names, err := r.projectRun(proj, ds, opts)
	if err != nil || run.Project == nil {
		return decidedChanges(ds, nil), err
	}
	decided, err := r.executor().RunProject(ctx, run)
	if err != nil {
		return nil, r.failed(ctx, pl.Project, names, err)
	}
	return decidedChanges(ds, decided), nil
}

// projectRun is what up hands the executor for the decisions ds, the same
// for up and its dry run: the services whose containers change (nil
// Project: none), those devenv recreates forced, the others left to the
// executor's own reconcile (Compose's: create the missing, start the
// stopped, recreate what diverged). names are the services it runs.
func (r *Runner) projectRun(proj *types.Project, ds []decision, opts UpOptions) (engine.ProjectRun, []string, error) {
	var run, forced []string
	for _, d := range ds {
		if d.action == Unchanged {
			continue
		}
		run = append(run, d.svc.Name)
		if d.action == Recreated {
			forced = append(forced, d.svc.Name)
		}
	}
	if len(run) == 0 {
		return engine.ProjectRun{}, nil, nil
	}
	sel, err := proj.WithSelectedServices(run, types.IgnoreDependencies)
	if err != nil {
		return engine.ProjectRun{}, nil, err
	}
	return engine.ProjectRun{Project: sel, Forced: forced, NoStart: opts.NoStart, StopTimeout: r.stopTimeout(), DryRun: opts.DryRun}, run, nil
}

// decidedChanges are the changes of the decisions ds, each as the executor
// decided it (decided; nil: as devenv did): the executor's own reconcile
// may go further than devenv's decision (Compose recreates a stopped
// container whose image or volumes changed, or whose network parent was
// recreated), and what it does is what up reports and its dry run says.
func decidedChanges(ds []decision, decided engine.Decisions) []Change {
	out := make([]Change, 0, len(ds))
	for _, d := range ds {
		c := d.change()
		if a, ok := decided[d.svc.Name]; ok && a != c.Action {
			c.Detail = fmt.Sprintf("%s (Compose's decision: devenv found it %s)", c.Detail, devenvWord(c.Action))
			c.Action = a
		}
		out = append(out, c)
	}
	return out
}

// devenvWord is what devenv's own decision a says of the container.
func devenvWord(a string) string {
	switch a {
	case Created:
		return "missing"
	case Started:
		return "stopped and up to date"
	case Recreated:
		return "changed"
	}
	return "up to date"
}

// checkCreates runs checkCreate on every decision that makes a container
// (created or recreated), all problems at once: up runs it before the
// executor is called, its dry run after deciding.
func (r *Runner) checkCreates(ctx context.Context, proj *types.Project, ds []decision) error {
	var errs *multierror.Error
	for _, d := range ds {
		if d.action == Created || d.action == Recreated {
			errs = multierror.Append(errs, r.checkCreate(ctx, proj, d))
		}
	}
	return errs.ErrorOrNil()
}

// checkCreate is what devenv checks before a container is made, on the
// service as the executor will run it (proj, the rendered project): state
// mounts and bind sources (again: the files may have changed since the
// plan), and that no container outside the project has its name.
func (r *Runner) checkCreate(ctx context.Context, proj *types.Project, d decision) error {
	name := d.svc.Name
	svc, ok := proj.Services[name]
	if !ok {
		return fmt.Errorf("service %s: not in the project the executor runs", name)
	}
	if err := r.checkStateMounts(svc); err != nil {
		return fmt.Errorf("service %s: %w", name, err)
	}
	if err := plan.CheckBindSources(r.projectDir(), r.StateDir, proj, svc); err != nil {
		return fmt.Errorf("service %s: %w", name, err)
	}
	if d.action != Created {
		return nil
	}
	st, err := r.Eng.Inspect(ctx, svc.ContainerName)
	switch {
	case errors.Is(err, engine.ErrNotFound):
		return nil
	case err != nil:
		return fmt.Errorf("service %s: %w", name, err)
	}
	return fmt.Errorf("service %s: %w", name, foreignName(svc.ContainerName, svc.Labels[labels.Project], st))
}

// failed is the executor's error, saying how to see the containers of
// the services it ran that never started (a port taken since the
// preflight, a refused GPU, a command that is not in the image): they
// are kept, as Compose keeps them, so that their logs and state can be
// read; the next up starts them again, or recreates a changed one.
func (r *Runner) failed(ctx context.Context, project string, ran []string, err error) error {
	objs, lerr := r.projectObjects(context.WithoutCancel(ctx), engine.Containers, project)
	if lerr != nil {
		return err
	}
	var svcs, names []string
	for _, o := range objs {
		if svc := o.Labels[labels.Service]; o.State == "created" && slices.Contains(ran, svc) {
			svcs, names = append(svcs, svc), append(names, o.Name)
		}
	}
	if len(svcs) == 0 {
		return err
	}
	slices.Sort(svcs)
	slices.Sort(names)
	logs := make([]string, len(svcs))
	for i, s := range svcs {
		logs[i] = "`devenv logs " + s + "`"
	}
	what := "the container that could not start is kept"
	if len(names) > 1 {
		what = "the containers that could not start are kept"
	}
	return fmt.Errorf("%w\n\thint: %s, as Compose keeps it (%s): %s shows its output "+
		"and `docker inspect %s` its state; `devenv up` tries again", err, what, strings.Join(names, ", "), strings.Join(logs, ", "), strings.Join(names, " "))
}

// executor is Exec, or an engine that runs projects itself (the fake).
func (r *Runner) executor() engine.Executor {
	if r.Exec != nil {
		return r.Exec
	}
	if x, ok := r.Eng.(engine.Executor); ok {
		return x
	}
	return noExecutor{}
}

// noExecutor is a Runner built without one: a programming error, reported
// as an error rather than a panic.
type noExecutor struct{}

var errNoExecutor = errors.New("devenv has no executor for this engine (a bug: the Runner was built without one)")

func (noExecutor) ServiceHash(types.ServiceConfig) (string, error) { return "", errNoExecutor }
func (noExecutor) RunProject(context.Context, engine.ProjectRun) (engine.Decisions, error) {
	return nil, errNoExecutor
}
func (noExecutor) StopProject(context.Context, engine.ProjectStop) error {
	return errNoExecutor
}
func (noExecutor) StartProject(context.Context, engine.ProjectStart) error {
	return errNoExecutor
}
func (noExecutor) RemoveProject(context.Context, engine.ProjectRemove) error {
	return errNoExecutor
}
func (noExecutor) DownProject(context.Context, engine.ProjectDown) error {
	return errNoExecutor
}
