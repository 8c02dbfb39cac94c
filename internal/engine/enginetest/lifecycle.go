package enginetest

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// StartProject starts the services' stopped containers as the Compose
// SDK's Start does: those Compose lists for the project, dependencies
// first, each followed by its service's post_start hooks (through Exec; a
// non-zero exit fails the start). A project with no container at all is
// an error, as with the SDK. The fake does not wait for depends_on
// conditions: its containers are healthy once started. The call is
// recorded as "StartProject" with start as its argument.
func (f *Fake) StartProject(ctx context.Context, start engine.ProjectStart) error {
	if err := f.recordLocked("StartProject", start); err != nil {
		return err
	}
	if len(f.projectContainers(start.Project.Name)) == 0 && len(start.Services) > 0 {
		return fmt.Errorf("service %q has no container to start", start.Services[0])
	}
	for _, name := range dependencyOrder(start.Project) {
		if !slices.Contains(start.Services, name) {
			continue
		}
		svc := start.Project.Services[name]
		for _, c := range f.composeContainers(start.Project.Name, name) {
			if c.State == "running" {
				continue
			}
			if err := f.Start(ctx, c.ID); err != nil {
				return fmt.Errorf("service %s: %w", name, err)
			}
			if err := f.runHooks(ctx, c, "post_start", svc.PostStart); err != nil {
				return fmt.Errorf("service %s: %w", name, err)
			}
		}
	}
	return nil
}

// RemoveProject removes the services' stopped containers as the Compose
// SDK's Remove does; with rm.Stop it first stops their running ones as
// StopProject does (dependents first, pre_stop hooks, rm.Timeout or the
// grace period). A running container is never removed. The call is
// recorded as "RemoveProject" with rm as its argument.
func (f *Fake) RemoveProject(ctx context.Context, rm engine.ProjectRemove) error {
	if err := f.recordLocked("RemoveProject", rm); err != nil {
		return err
	}
	if rm.Stop {
		if err := f.stopServices(ctx, engine.ProjectStop{Project: rm.Project, Services: rm.Services, Timeout: rm.Timeout}); err != nil {
			return err
		}
	}
	for _, name := range rm.Services {
		for _, c := range f.composeContainers(rm.Project.Name, name) {
			if c.State == "running" {
				continue
			}
			if err := f.Remove(ctx, engine.Containers, c.ID, false); err != nil {
				return fmt.Errorf("service %s: %w", name, err)
			}
		}
	}
	return nil
}

// DownProject stops and removes the project's containers as the Compose
// SDK's Down does: each service's, dependents first (pre_stop hooks,
// down.Timeout or the grace period), then with down.RemoveOrphans those
// of services the project no longer has (no hooks). It removes containers
// only: a project that declares a network or volume that is not external
// is an error (devenv hands the SDK's down only external ones). The call
// is recorded as "DownProject" with down as its argument.
func (f *Fake) DownProject(ctx context.Context, down engine.ProjectDown) error {
	if err := f.recordLocked("DownProject", down); err != nil {
		return err
	}
	if err := onlyExternal(down.Project); err != nil {
		return err
	}
	order := dependencyOrder(down.Project)
	slices.Reverse(order)
	for _, name := range order {
		for _, c := range f.composeContainers(down.Project.Name, name) {
			if err := f.downContainer(ctx, c, down.Project.Services[name], down); err != nil {
				return fmt.Errorf("service %s: %w", name, err)
			}
		}
	}
	if !down.RemoveOrphans {
		return nil
	}
	for _, c := range f.projectContainers(down.Project.Name) {
		if _, ok := down.Project.Services[c.Labels[labels.ComposeService]]; ok || c.Labels[labels.ComposeOneoff] == "True" {
			continue
		}
		if err := f.downContainer(ctx, c, types.ServiceConfig{}, down); err != nil {
			return fmt.Errorf("orphan %s: %w", c.Name, err)
		}
	}
	return nil
}

func (f *Fake) downContainer(ctx context.Context, c engine.Object, svc types.ServiceConfig, down engine.ProjectDown) error {
	if err := f.stopService(ctx, c, svc, down.Timeout); err != nil {
		return err
	}
	return f.Remove(ctx, engine.Containers, c.ID, down.Volumes)
}

func onlyExternal(p *types.Project) error {
	for k, n := range p.Networks {
		if !bool(n.External) {
			return fmt.Errorf("network %s of project %s is not external: the fake engine takes down only containers", k, p.Name)
		}
	}
	for k, v := range p.Volumes {
		if !bool(v.External) {
			return fmt.Errorf("volume %s of project %s is not external: the fake engine takes down only containers", k, p.Name)
		}
	}
	return nil
}

// projectContainers is every container Compose lists for the project
// (any service, one-offs too), by name.
func (f *Fake) projectContainers(project string) []engine.Object {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []engine.Object
	want := map[string]string{labels.ComposeProject: project, labels.ComposeConfigHash: ""}
	for _, o := range f.objects[engine.Containers] {
		if hasLabels(o.obj.Labels, want) {
			out = append(out, o.listed())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (f *Fake) recordLocked(method string, arg any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.record(method, arg)
}
