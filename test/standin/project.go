package standin

import (
	"context"
	"os"
	"path/filepath"
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
	images, err := cli.ImageList(ctx, image.ListOptions{All: true, Filters: f})
	add("listing images", err)
	// Children first: an image built on another of the project's (the
	// build cache chains them) cannot be removed before it.
	sort.Slice(images, func(i, j int) bool { return images[i].Created > images[j].Created })
	for _, im := range images {
		_, err := cli.ImageRemove(ctx, im.ID, image.RemoveOptions{Force: true, PruneChildren: true})
		switch {
		case err == nil, cerrdefs.IsNotFound(err): // removing a parent may already have removed it
		case cerrdefs.IsConflict(err) && strings.Contains(err.Error(), "dependent child images"):
			// Tests build side by side, and the classic builder's cache
			// reuses a layer of this project as the parent of another
			// project's image: that one's cleanup prunes it.
		default:
			add("removing image "+im.ID, err)
		}
	}
	return errs.ErrorOrNil()
}
