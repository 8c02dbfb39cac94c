package standin

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"
	"github.com/hashicorp/go-multierror"

	"github.com/devenv-dev/devenv/internal/labels"
)

// Project creates a temporary project directory (removed at cleanup)
// holding files, keyed by slash-separated paths relative to it, and returns
// its path.
func Project(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeProject(dir, files); err != nil {
		t.Fatalf("standin: %v", err)
	}
	return dir
}

func writeProject(dir string, files map[string]string) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var errs *multierror.Error
	for _, name := range names {
		clean := filepath.FromSlash(name)
		if name == "" || filepath.IsAbs(clean) || !filepath.IsLocal(clean) {
			errs = multierror.Append(errs, errorf("project file %q: want a relative path inside the project, without ..", name))
			continue
		}
		p := filepath.Join(dir, clean)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			errs = multierror.Append(errs, errorf("project file %q: %v", name, err))
			continue
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			errs = multierror.Append(errs, errorf("project file %q: %v", name, err))
		}
	}
	return errs.ErrorOrNil()
}

// CleanupProject removes every container, network, volume and image
// labelled dev.devenv.project=<name> now (leftovers of an earlier run) and
// again at cleanup. Set DEVENV_TEST_KEEP=1 to keep a failed test's objects
// for inspection.
func CleanupProject(t testing.TB, name string) {
	t.Helper()
	if name == "" {
		t.Fatalf("standin: CleanupProject needs the project name")
	}
	cli := Docker(t)
	if err := removeProject(cli, name); err != nil {
		t.Fatalf("standin: removing leftovers of project %s: %v", name, err)
	}
	t.Cleanup(func() {
		if t.Failed() && os.Getenv("DEVENV_TEST_KEEP") != "" {
			t.Logf("standin: DEVENV_TEST_KEEP is set: keeping the objects labelled %s=%s", labels.Project, name)
			return
		}
		if err := removeProject(cli, name); err != nil {
			t.Errorf("standin: cleaning up project %s: %v", name, err)
		}
	})
}

// removeProject removes the project's containers (with their anonymous
// volumes), then networks, volumes and images, reporting every failure.
// The images are those labelled for the project: its builds' images and
// whatever was built on them (a labelled image's children inherit the
// label). Their parents without the label, the classic builder's cache of
// the steps before the label, stay: tests build side by side, and another
// test's build may at this moment be using one of them as the parent of
// its next step (pruning them failed such a build with "failed to set
// parent ... unknown parent image ID").
func removeProject(cli *client.Client, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	f := filters.NewArgs(filters.Arg("label", labels.ProjectFilter(name)))
	var errs *multierror.Error
	add := func(what string, err error) {
		if err != nil {
			errs = multierror.Append(errs, errorf("%s: %v", what, err))
		}
	}
	containers, err := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	add("listing containers", err)
	for _, c := range containers {
		add("removing container "+strings.Join(c.Names, ","), cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true}))
	}
	networks, err := cli.NetworkList(ctx, network.ListOptions{Filters: f})
	add("listing networks", err)
	for _, n := range networks {
		add("removing network "+n.Name, cli.NetworkRemove(ctx, n.ID))
	}
	volumes, err := cli.VolumeList(ctx, volume.ListOptions{Filters: f})
	add("listing volumes", err)
	for _, v := range volumes.Volumes {
		add("removing volume "+v.Name, cli.VolumeRemove(ctx, v.Name, true))
	}
	add("removing images", removeImages(ctx, cli, f))
	return errs.ErrorOrNil()
}

// removeImages removes the images f selects, never pruning their parents.
// The engine lists (without All) the tagged ones and the untagged ones
// nothing is built on; removing those newest first, then listing again,
// reaches the steps between them (an image built on another of the
// project's) once what was built on them is gone. One that another
// project's image is built on is only untagged. It stops when a pass
// changes nothing.
func removeImages(ctx context.Context, cli *client.Client, f filters.Args) error {
	for {
		images, err := cli.ImageList(ctx, image.ListOptions{Filters: f})
		if err != nil {
			return errorf("listing images: %v", err)
		}
		sort.Slice(images, func(i, j int) bool { return images[i].Created > images[j].Created })
		changed := false
		for _, im := range images {
			removed, err := removeImage(ctx, cli, im)
			if err != nil {
				return errorf("removing image %s %v: %v", im.ID, im.RepoTags, err)
			}
			changed = changed || removed
		}
		if !changed {
			return nil
		}
	}
}

// removeImage removes im by each of its tags (by its ID when it has none),
// never its parents, and reports whether the engine removed or untagged
// anything. An image that another is built on is only untagged (the
// engine refuses to remove it).
func removeImage(ctx context.Context, cli *client.Client, im image.Summary) (bool, error) {
	refs := slices.DeleteFunc(slices.Clone(im.RepoTags), func(r string) bool { return r == "<none>:<none>" })
	if len(refs) == 0 {
		refs = []string{im.ID}
	}
	changed := false
	for _, ref := range refs {
		_, err := cli.ImageRemove(ctx, ref, image.RemoveOptions{PruneChildren: false})
		switch {
		case err == nil:
			changed = true
		case cerrdefs.IsNotFound(err):
		case cerrdefs.IsConflict(err) && strings.Contains(err.Error(), "dependent child images"):
			changed = changed || ref != im.ID // the tag went before the engine refused
		default:
			return changed, err
		}
	}
	return changed, nil
}
