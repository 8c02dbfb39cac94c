package reconcile

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/statedir"
	"github.com/hashicorp/go-multierror"
)

// UpOptions steer Up.
type UpOptions struct {
	Services    []string // only these (and what they depend on); empty: all
	NoStart     bool     // create containers but do not start them
	Build       BuildOptions
	Wait        bool          // wait until every started service is healthy
	WaitTimeout time.Duration // for Wait
	DryRun      bool          // report what would change and change nothing
	// ForceRecreate recreates the services' containers even when nothing changed.
	ForceRecreate bool
	// NoDeps starts only the services named, not what they depend on.
	NoDeps bool
	// RemoveOrphans removes the project's containers of services the plan
	// no longer has; without it up names them, as Compose does.
	RemoveOrphans bool
}

// UpResult says what Up did.
type UpResult struct {
	Changes []Change `json:"changes"`
}

// Up converges the engine to the plan. Re-running it on an unchanged,
// running project changes nothing.
func (r *Runner) Up(ctx context.Context, pl *plan.Plan, opts UpOptions) (*UpResult, error) {
	svcs, err := selectServices(pl, opts.Services, opts.NoDeps)
	if err != nil {
		return nil, err
	}
	if opts.DryRun {
		return r.preview(ctx, pl, svcs, opts)
	}
	listed, err := r.projectObjects(ctx, engine.Containers, pl.Project)
	if err != nil {
		return nil, err
	}
	if err := r.containerGuards(pl, svcs, listed); err != nil {
		return nil, err
	}
	res := &UpResult{}
	orphans, err := orphansOf(ctx, pl, listed)
	if err != nil {
		return nil, err
	}
	if len(orphans) > 0 && !opts.RemoveOrphans {
		r.warnOrphans(orphans)
	}
	changes, err := r.Images(ctx, svcs, opts.Build)
	res.Changes = append(res.Changes, changes...)
	if err != nil {
		return res, err
	}
	if len(changes) > 0 {
		// building or pulling took a while: look at the containers again
		if listed, err = r.projectObjects(ctx, engine.Containers, pl.Project); err != nil {
			return res, err
		}
	}
	if err := WriteGenerated(r.StateDir, svcs); err != nil {
		return res, err
	}
	netID, err := r.ensureShared(ctx, pl, listed)
	if err != nil {
		return res, err
	}
	net := projectNet{name: pl.Network, id: netID}
	if opts.RemoveOrphans {
		if orphans, err = orphansOf(ctx, pl, listed); err != nil { // listed again after a build
			return res, err
		}
		removed, err := r.removeOrphans(ctx, orphans)
		res.Changes = append(res.Changes, removed...)
		if err != nil {
			return res, err
		}
	}
	proj, err := r.render(pl)
	if err != nil {
		return res, err
	}
	images, err := r.currentImages(ctx, proj, svcs, byName(listed))
	if err != nil {
		return res, err
	}
	ds, err := r.decide(proj, svcs, byName(listed), net, images, opts)
	if err != nil {
		return res, err
	}
	changes, err = r.execute(ctx, proj, pl, ds, opts)
	res.Changes = append(res.Changes, changes...)
	if err != nil {
		return res, err
	}
	if opts.Wait && !opts.NoStart {
		return res, r.WaitHealthy(ctx, proj, svcs, opts.WaitTimeout)
	}
	return res, nil
}

// ensureShared makes the project's network and volumes exist and returns
// the network's id. A network of that name that devenv did not create for
// this project in this directory is refused, not joined; so is a volume
// another devenv project, or this project from another directory, made.
// The project's volumes are checked before anything is created, so a
// refused up leaves no network labelled for this directory behind to
// block the clone that owns them.
func (r *Runner) ensureShared(ctx context.Context, pl *plan.Plan, containers []engine.Object) (string, error) {
	want := plan.Labels(pl.Project, "")
	if dir := r.projectDir(); dir != "" {
		want[labels.Dir] = dir
	}
	have := map[string]bool{}
	if len(pl.Volumes) > 0 {
		vols, err := r.projectObjects(ctx, engine.Volumes, pl.Project)
		if err != nil {
			return "", err
		}
		if err := r.checkOwned(pl.Project, vols); err != nil {
			return "", err
		}
		for _, v := range vols {
			have[v.Name] = true
		}
	}
	if pl.NetworkExternal {
		return r.externalNetwork(ctx, pl.Network)
	}
	n, err := r.Eng.EnsureNetwork(ctx, pl.Network, want)
	if errors.Is(err, engine.ErrAmbiguous) {
		if err := r.repairNetwork(ctx, pl, containers); err != nil {
			return "", err
		}
		n, err = r.Eng.EnsureNetwork(ctx, pl.Network, want)
	}
	if err != nil {
		return "", err
	}
	if err := r.ownNetwork(n, pl.Project); err != nil {
		return "", err
	}
	for _, name := range pl.Volumes {
		if have[name] {
			continue // this project's, from this directory (or from before directories were recorded)
		}
		v, err := r.Eng.EnsureVolume(ctx, name, want)
		if err != nil {
			return "", err
		}
		if err := r.ownVolume(v, pl.Project); err != nil {
			return "", err
		}
	}
	return n.ID, nil
}

// WriteGenerated writes the host copies of each service's generated files
// (spark-defaults.conf) under stateDir/generated/<service>/, atomically and
// readable by their owner only: people, config and exports read them, and
// containers get their own copy (plan.GeneratedMode), never these files. A
// symbolic link on the way is refused before anything is written.
func WriteGenerated(stateDir string, svcs []*plan.Service) error {
	for _, s := range svcs {
		if len(s.Generated) == 0 {
			continue
		}
		dir := plan.GeneratedDir(stateDir, s.Name)
		if err := statedir.MkdirAll(stateDir, dir); err != nil {
			return fmt.Errorf("service %s: %w", s.Name, err)
		}
		for name, data := range s.Generated {
			if _, err := atomicfile.WriteIfChanged(filepath.Join(dir, name), data, plan.GeneratedMode); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Runner) containersByName(ctx context.Context, project string) (map[string]engine.Object, error) {
	objs, err := r.projectObjects(ctx, engine.Containers, project)
	if err != nil {
		return nil, err
	}
	return byName(objs), nil
}

func byName(objs []engine.Object) map[string]engine.Object {
	out := map[string]engine.Object{}
	for _, o := range objs {
		out[o.Name] = o
	}
	return out
}

// checkStateMounts refuses to mount a host path under .devenv that is or
// passes through a symbolic link: the container would see (and with a
// writable mount change) a directory elsewhere on the host.
func (r *Runner) checkStateMounts(svc types.ServiceConfig) error {
	if r.StateDir == "" {
		return nil
	}
	for _, v := range svc.Volumes {
		if v.Type != types.VolumeTypeBind {
			continue
		}
		if _, under := projpath.Within(r.StateDir, v.Source); under {
			if err := statedir.Check(r.StateDir, v.Source); err != nil {
				return err
			}
		}
	}
	return nil
}

// projectNet is the project's network as ensureShared found or made it.
type projectNet struct{ name, id string }

// foreignName explains a container name in use outside the project: the
// container of that name belongs to another devenv project (named, with
// its directory), or to no devenv project at all.
func foreignName(name, project string, st engine.ContainerState) error {
	if other := st.Labels[labels.Project]; other != "" && other != project {
		where := ""
		if dir := st.Labels[labels.Dir]; dir != "" {
			where = " in " + dir
		}
		return fmt.Errorf("a container named %s already exists and belongs to devenv project %q%s: run `devenv down` there, "+
			"or set another `name:` in this devenv.yaml", name, other, where)
	}
	return fmt.Errorf("a container named %s already exists and devenv did not create it (it has no devenv label): rename or remove it, or change `name:` in devenv.yaml", name)
}

// envFilesPresent refuses, before anything is built or created, services
// whose env_file is missing: a container made without it would run without
// the variables (often secrets) the user meant it to have.
func envFilesPresent(svcs []*plan.Service) error {
	var errs *multierror.Error
	for _, s := range svcs {
		if s.Replica != "" {
			continue // reported for the service it belongs to
		}
		if err := s.EnvFileError(); err != nil {
			errs = multierror.Append(errs, err)
		}
	}
	return errs.ErrorOrNil()
}

// networkUpCreates stands, in a dry run, for the id of the project
// network up will create: no container refers to it yet, so a container
// left on a network removed since is recreated, as up recreates it.
const networkUpCreates = "(the network up creates)"

// preview is Up with DryRun: the changes Up would make, from what the
// engine has now, making none (no pull, build, network, file or container).
// It refuses what Up refuses, in Up's order: the project's containers
// (containerGuards), the images, the generated files (generatedGuard),
// the shared network and volumes (sharedGuards), then the containers to
// create (checkCreates).
func (r *Runner) preview(ctx context.Context, pl *plan.Plan, svcs []*plan.Service, opts UpOptions) (*UpResult, error) {
	listed, err := r.projectObjects(ctx, engine.Containers, pl.Project)
	if err != nil {
		return nil, err
	}
	if err := r.containerGuards(pl, svcs, listed); err != nil {
		return nil, err
	}
	res := &UpResult{}
	for _, s := range svcs {
		c, err := r.imagePreview(ctx, s, opts.Build)
		if err != nil {
			return nil, err
		}
		if c != nil {
			res.Changes = append(res.Changes, *c)
		}
	}
	if err := r.generatedGuard(svcs); err != nil {
		return nil, err
	}
	if err := r.sharedGuards(ctx, pl); err != nil {
		return nil, err
	}
	shared, listedShared, err := r.sharedPreview(ctx, pl)
	if err != nil {
		return nil, err
	}
	res.Changes = append(res.Changes, shared...)
	orphans, err := orphansOf(ctx, pl, listed)
	if err != nil {
		return nil, err
	}
	if opts.RemoveOrphans {
		for _, o := range orphans {
			res.Changes = append(res.Changes, Change{Service: o.Labels[labels.Service], Action: Removed, Detail: "orphan container " + o.Name})
		}
	}
	proj, err := r.render(pl)
	if err != nil {
		return nil, err
	}
	net := projectNet{name: pl.Network, id: networkUpCreates}
	var same []engine.Object
	for _, n := range listedShared[engine.Networks] {
		if n.Name == pl.Network {
			same = append(same, n)
		}
	}
	if len(same) > 0 { // of duplicates, the one repairNetwork keeps
		net.id = keptNetwork(same, listed, pl.Network).ID
	}
	if pl.NetworkExternal { // there (sharedGuards), and not the project's to label
		if net.id, err = r.externalNetwork(ctx, pl.Network); err != nil {
			return nil, err
		}
	}
	images, err := r.currentImages(ctx, proj, svcs, byName(listed))
	if err != nil {
		return nil, err
	}
	ds, err := r.decide(proj, svcs, byName(listed), net, images, opts)
	if err != nil {
		return nil, err
	}
	if err := r.checkCreates(ctx, proj, ds); err != nil {
		return nil, err
	}
	decided, err := r.executorPreview(ctx, proj, pl, ds, opts, net, len(same) > 1, listedShared[engine.Volumes])
	if err != nil {
		return nil, err
	}
	res.Changes = append(res.Changes, decidedChanges(ds, decided)...)
	return res, nil
}

// executorPreview is the executor's dry run (Compose's own, on a real
// engine) of the run up hands it for the decisions ds (projectRun): what
// it would do to each container, which the dry run prints.
// vols are the project's volumes as they are (sharedPreview's listing).
func (r *Runner) executorPreview(ctx context.Context, proj *types.Project, pl *plan.Plan, ds []decision, opts UpOptions, net projectNet, duplicated bool, vols []engine.Object) (engine.Decisions, error) {
	run, _, err := r.projectRun(proj, ds, opts)
	if err != nil || run.Project == nil {
		return nil, err
	}
	run.Project = asUpLeavesIt(run.Project, pl, net, duplicated, vols)
	decided, err := r.executor().RunProject(ctx, run)
	if err != nil {
		return nil, fmt.Errorf("Compose's dry run of up: %w", err)
	}
	return decided, nil
}

// asUpLeavesIt is proj as the executor finds the engine once up has done
// what it does first: the project network and volumes that do not exist
// yet are the executor's to make in its dry run (faked there), and of
// duplicate project networks the one up keeps (repairNetwork) is named by
// its id. A dependency's condition service_healthy is service_started
// there: the dry run starts nothing, so waiting for a container's health
// would wait for one it left stopped (or that is still starting), and the
// condition is no part of what is decided (Compose keeps depends_on out
// of its config hash).
func asUpLeavesIt(proj *types.Project, pl *plan.Plan, net projectNet, duplicated bool, vols []engine.Object) *types.Project {
	out := *proj
	out.Services = types.Services{}
	for name, s := range proj.Services {
		deps := types.DependsOnConfig{}
		for d, dep := range s.DependsOn {
			if dep.Condition == types.ServiceConditionHealthy {
				dep.Condition = types.ServiceConditionStarted
			}
			deps[d] = dep
		}
		if s.DependsOn != nil {
			s.DependsOn = deps
		}
		out.Services[name] = s
	}
	out.Networks = types.Networks{}
	for k, n := range proj.Networks {
		switch {
		case n.Name != pl.Network || pl.NetworkExternal:
		case net.id == networkUpCreates:
			n.External = false
		case duplicated:
			n.Name = net.id
		}
		out.Networks[k] = n
	}
	out.Volumes = types.Volumes{}
	for k, v := range proj.Volumes {
		if bool(v.External) && slices.Contains(pl.Volumes, v.Name) && namedObject(vols, v.Name) == nil {
			v.External = false
		}
		out.Volumes[k] = v
	}
	return &out
}

func (r *Runner) imagePreview(ctx context.Context, s *plan.Service, opts BuildOptions) (*Change, error) {
	ok, err := r.Eng.ImageExists(ctx, s.Image)
	if err != nil {
		return nil, err
	}
	switch {
	case s.Build == nil && !ok && opts.NeverPull:
		return nil, fmt.Errorf("service %s: image %s is not on the engine, and --pull never forbids pulling it: pull or load it, or run up without --pull never", s.Name, s.Image)
	case s.Build == nil && (!ok || opts.Pull):
		return &Change{Service: s.Name, Action: Pulled, Detail: s.Image}, nil
	case s.Build != nil && s.BuildErr != nil:
		return nil, fmt.Errorf("service %s: %w", s.Name, s.BuildErr)
	case s.Build != nil && !ok && opts.NoBuild:
		return nil, fmt.Errorf("service %s: %w", s.Name, errNoBuild(s))
	case s.Build != nil && (!ok || opts.Pull || opts.NoCache):
		return &Change{Service: s.Name, Action: Built, Detail: s.Image}, nil
	}
	return nil, nil
}

// sharedPreview is what up makes of the project network and volumes, and
// the project's networks and volumes as they are, by kind.
func (r *Runner) sharedPreview(ctx context.Context, pl *plan.Plan) ([]Change, map[engine.Kind][]engine.Object, error) {
	var out []Change
	listed := map[engine.Kind][]engine.Object{}
	want := map[engine.Kind][]string{engine.Networks: {pl.Network}, engine.Volumes: pl.Volumes}
	for _, k := range []engine.Kind{engine.Networks, engine.Volumes} {
		have, err := r.projectObjects(ctx, k, pl.Project)
		if err != nil {
			return nil, nil, err
		}
		listed[k] = have
		for _, name := range want[k] {
			if namedObject(have, name) == nil {
				out = append(out, Change{Action: Created, Detail: string(k) + " " + name})
			}
		}
	}
	return out, listed, nil
}

// externalNetwork is the id of the network a compose file declares
// external: it is used as it is (devenv neither makes, labels nor removes
// it), and, as with Compose, it must exist.
func (r *Runner) externalNetwork(ctx context.Context, name string) (string, error) {
	all, err := r.Eng.List(ctx, engine.Networks, nil)
	if err != nil {
		return "", err
	}
	if n := namedObject(all, name); n != nil {
		return n.ID, nil
	}
	return "", fmt.Errorf("network %s is declared as external in the compose file, but could not be found: create it (`docker network create %s`), or bring up the project that makes it", name, name)
}

func namedObject(objs []engine.Object, name string) *engine.Object {
	for i := range objs {
		if objs[i].Name == name {
			return &objs[i]
		}
	}
	return nil
}

func (r *Runner) removeContainer(ctx context.Context, id string) error {
	if err := r.Eng.Stop(ctx, id, r.stopTimeout()); err != nil && !isNotFound(err) {
		return err
	}
	if err := r.Eng.Remove(ctx, engine.Containers, id, false); err != nil && !isNotFound(err) {
		return err
	}
	return nil
}
