package reconcile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// projectDir is the project directory (the parent of .devenv), or "" when
// the runner has no state directory (unit tests of other behaviour).
func (r *Runner) projectDir() string {
	if r.StateDir == "" {
		return ""
	}
	return filepath.Dir(filepath.Clean(r.StateDir))
}

// CheckOwner refuses to touch a project whose containers another directory
// created: two clones with the same project name would otherwise recreate,
// stop and remove each other's containers. Objects without the directory
// label (made by an older devenv) are taken over.
func (r *Runner) CheckOwner(ctx context.Context, project string) error {
	dir := r.projectDir()
	if dir == "" {
		return nil
	}
	objs, err := r.projectObjects(ctx, engine.Containers, project)
	if err != nil {
		return err
	}
	return r.checkOwned(project, objs)
}

// checkOwned is CheckOwner on the project's objects already listed
// (containers; volumes before down removes them).
func (r *Runner) checkOwned(project string, objs []engine.Object) error {
	dir := r.projectDir()
	if dir == "" {
		return nil
	}
	for _, o := range objs {
		if other := o.Labels[labels.Dir]; other != "" && other != dir && !r.adopt(project, other) {
			return ownedElsewhere(project, other, string(o.Kind)+" "+o.Name)
		}
	}
	return nil
}

// adopt reports whether this directory takes over the project's objects
// labelled for the directory other because other holds no devenv project
// any more (Runner.Gone): it was moved (`mv proj proj2`) or deleted, so
// nobody can run `devenv down` there. up recreates the containers with
// this directory's label; down removes everything labelled for the
// project. The first adoption of a run says so.
func (r *Runner) adopt(project, other string) bool {
	if r.Gone == nil || !r.Gone(other) {
		return false
	}
	if r.Out != nil && !r.adoptSaid {
		r.adoptSaid = true
		r.Out.Warn("project %q was brought up in %s, which holds no devenv project any more (moved or deleted): %s takes over its containers, network and volumes",
			project, other, r.projectDir())
	}
	return true
}

// DirGone is Runner.Gone for an engine of this machine (local): dir, an
// absolute path a label recorded, holds no state directory named
// stateDirName (".devenv") any more. On an engine elsewhere a label names
// a path of whichever machine ran devenv, which is not here to look at:
// nothing is gone.
func DirGone(local bool, stateDirName string) func(dir string) bool {
	return func(dir string) bool {
		if !local || !filepath.IsAbs(dir) {
			return false
		}
		_, err := os.Lstat(filepath.Join(dir, stateDirName))
		return errors.Is(err, fs.ErrNotExist) // there, or unreadable: not proved gone
	}
}

// ownNetwork accepts the project network EnsureNetwork returned only when
// devenv made it for this project, in this directory (or before directories
// were recorded).
func (r *Runner) ownNetwork(n engine.Object, project string) error {
	if n.Labels[labels.Project] != project {
		return fmt.Errorf("a network named %q exists and devenv did not create it for project %q (labels %v): "+
			"remove it (`docker network rm %s`) if nothing uses it, or set another `name:` in devenv.yaml", n.Name, project, n.Labels, n.Name)
	}
	if other := n.Labels[labels.Dir]; other != "" && other != r.projectDir() && r.projectDir() != "" && !r.adopt(project, other) {
		return ownedElsewhere(project, other, "network "+n.Name)
	}
	return nil
}

// ownVolume accepts the volume EnsureVolume returned unless another devenv
// project made it, or this project from another directory: the containers
// here would read and write that clone's data. A volume without devenv's
// labels (made by hand, by docker compose from an export, or by a devenv
// that recorded no directory) is used as it is.
func (r *Runner) ownVolume(v engine.Object, project string) error {
	if p := v.Labels[labels.Project]; p != "" && p != project {
		return fmt.Errorf("a volume named %q belongs to devenv project %q, not %q: rename the volume in devenv.yaml, or set another `name:`", v.Name, p, project)
	}
	if other := v.Labels[labels.Dir]; other != "" && other != r.projectDir() && r.projectDir() != "" && !r.adopt(project, other) {
		return fmt.Errorf("%w; the volume keeps that clone's data: remove it with `devenv down --volumes` there (or `docker volume rm %s`) only if the data can go",
			ownedElsewhere(project, other, "volume "+v.Name), v.Name)
	}
	return nil
}

func ownedElsewhere(project, other, what string) error {
	return fmt.Errorf("project name %q is in use by %s (its %s was created there): set a different `name:` in this devenv.yaml, "+
		"or run `devenv down` in %s first", project, other, what, other)
}
