package reconcile

import (
	"context"
	"fmt"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/statedir"
)

// The guards Up runs before it changes anything, as functions of what the
// engine has now, so that Up and its dry run (preview) refuse the same
// projects with the same errors.

// containerGuards refuses, before anything is pulled or built, a project
// whose containers (listed) another directory made, and services whose
// env_file is missing.
func (r *Runner) containerGuards(pl *plan.Plan, svcs []*plan.Service, listed []engine.Object) error {
	if err := r.checkOwned(pl.Project, listed); err != nil {
		return err
	}
	return envFilesPresent(svcs)
}

// generatedGuard is what WriteGenerated refuses before it writes: a
// symbolic link on the way to a service's generated files.
func (r *Runner) generatedGuard(svcs []*plan.Service) error {
	for _, s := range svcs {
		if len(s.Generated) == 0 {
			continue
		}
		if err := statedir.Check(r.StateDir, plan.GeneratedDir(r.StateDir, s.Name)); err != nil {
			return fmt.Errorf("service %s: %w", s.Name, err)
		}
	}
	return nil
}

// sharedGuards is what ensureShared refuses, found without making
// anything: the project's volumes made from another directory; an
// external network that is not there; a network of the project's name
// that devenv did not make for it here (or a duplicate repairNetwork would
// not remove); a volume of another devenv project or directory.
func (r *Runner) sharedGuards(ctx context.Context, pl *plan.Plan) error {
	have := map[string]bool{}
	if len(pl.Volumes) > 0 {
		vols, err := r.projectObjects(ctx, engine.Volumes, pl.Project)
		if err != nil {
			return err
		}
		if err := r.checkOwned(pl.Project, vols); err != nil {
			return err
		}
		for _, v := range vols {
			have[v.Name] = true
		}
	}
	if pl.NetworkExternal {
		_, err := r.externalNetwork(ctx, pl.Network)
		return err // ensureShared ensures no volume then either
	}
	if err := r.networkGuard(ctx, pl); err != nil {
		return err
	}
	return r.volumeGuard(ctx, pl, have)
}

// networkGuard is ensureShared's check of the project network: the one of
// its name must be devenv's for this project and directory; several must
// be ones repairNetwork may remove.
func (r *Runner) networkGuard(ctx context.Context, pl *plan.Plan) error {
	all, err := r.Eng.List(ctx, engine.Networks, nil)
	if err != nil {
		return err
	}
	var same []engine.Object
	for _, n := range all {
		if n.Name == pl.Network {
			same = append(same, n)
		}
	}
	switch len(same) {
	case 0:
		return nil // up creates it
	case 1:
		return r.ownNetwork(same[0], pl.Project)
	}
	_, err = r.duplicateNetworks(pl, all)
	return err
}

// volumeGuard is ensureShared's check of each volume up would use as it
// is (those labelled for the project, have, were checked already).
func (r *Runner) volumeGuard(ctx context.Context, pl *plan.Plan, have map[string]bool) error {
	if len(pl.Volumes) == 0 {
		return nil
	}
	all, err := r.Eng.List(ctx, engine.Volumes, nil)
	if err != nil {
		return err
	}
	for _, name := range pl.Volumes {
		if have[name] {
			continue
		}
		if v := namedObject(all, name); v != nil {
			if err := r.ownVolume(*v, pl.Project); err != nil {
				return err
			}
		}
	}
	return nil
}

// duplicateNetworks are the networks of the project network's name among
// all, each made by devenv for this project in this directory; a
// duplicate devenv did not make is refused by name.
func (r *Runner) duplicateNetworks(pl *plan.Plan, all []engine.Object) ([]engine.Object, error) {
	var same []engine.Object
	for _, n := range all {
		if n.Name != pl.Network {
			continue
		}
		if n.Labels[labels.Project] != pl.Project {
			return nil, fmt.Errorf("there are several networks named %q and %s was not created by devenv for project %q (labels %v): "+
				"remove it (`docker network rm %s`) if nothing uses it, or set another `name:` in devenv.yaml", pl.Network, n.ID[:min(12, len(n.ID))], pl.Project, n.Labels, n.ID[:min(12, len(n.ID))])
		}
		same = append(same, n)
	}
	if err := r.checkOwned(pl.Project, same); err != nil {
		return nil, err
	}
	return same, nil
}
