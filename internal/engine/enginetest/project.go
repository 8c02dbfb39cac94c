package enginetest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	composesdk "github.com/docker/compose/v5/pkg/compose"
)

var _ engine.Executor = (*Fake)(nil)

// ServiceHash is Compose's own config hash, as with the SDK.
func (f *Fake) ServiceHash(s types.ServiceConfig) (string, error) { return composesdk.ServiceHash(s) }

// RunProject converges the project's containers as the Compose SDK does,
// from the plan's container specs (run.Specs): in dependency order, a
// service whose container is missing is created, one whose config hash
// differs (or that is forced, or whose project network went away) is
// removed and created again, a stopped one is started, and a running one
// is left alone. Like the SDK it stops at the first error and leaves a
// container that failed to start as it is. TestIntegrationConformance
// holds it to the SDK on the real engine.
func (f *Fake) RunProject(ctx context.Context, run engine.ProjectRun) error {
	for _, name := range dependencyOrder(run.Project) {
		svc := run.Project.Services[name]
		spec, ok := run.Specs[name]
		if !ok {
			return fmt.Errorf("service %s: the fake engine runs container specs and was given none", name)
		}
		hash, err := f.ServiceHash(svc)
		if err != nil {
			return err
		}
		spec.Labels = maps.Clone(spec.Labels)
		maps.Copy(spec.Labels, svc.CustomLabels)
		spec.Labels[labels.ComposeConfigHash] = hash
		spec.Labels[labels.ComposeNumber] = "1"
		if err := f.converge(ctx, spec, slices.Contains(run.Forced, name), run); err != nil {
			return fmt.Errorf("service %s: %w", name, err)
		}
	}
	return nil
}

func (f *Fake) converge(ctx context.Context, spec engine.ContainerSpec, forced bool, run engine.ProjectRun) error {
	cur, err := f.Inspect(ctx, spec.Name)
	found := err == nil
	if found && !forced && cur.Labels[labels.ComposeConfigHash] == spec.Labels[labels.ComposeConfigHash] && f.attached(cur) {
		if cur.Running || run.NoStart {
			return nil
		}
		return f.Start(ctx, cur.ID)
	}
	if found {
		if err := f.Stop(ctx, cur.ID, run.StopTimeout); err != nil {
			return err
		}
		if err := f.Remove(ctx, engine.Containers, cur.ID, false); err != nil {
			return err
		}
	}
	id, err := f.Create(ctx, spec)
	if err != nil || run.NoStart {
		return err
	}
	return f.Start(ctx, id)
}

// attached reports whether every network the container refers to still
// exists (the SDK recreates a container whose network was replaced).
func (f *Fake) attached(st engine.ContainerState) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range st.NetworkIDs {
		if _, err := f.find(engine.Networks, id); err != nil {
			return false
		}
	}
	return true
}

// dependencyOrder is the project's services, each after what it depends
// on among them, ties by name.
func dependencyOrder(p *types.Project) []string {
	names := make([]string, 0, len(p.Services))
	for n := range p.Services {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	done := map[string]bool{}
	var visit func(string)
	visit = func(n string) {
		if done[n] {
			return
		}
		done[n] = true
		deps := slices.Sorted(maps.Keys(p.Services[n].DependsOn))
		for _, d := range deps {
			if _, ok := p.Services[d]; ok {
				visit(d)
			}
		}
		out = append(out, n)
	}
	for _, n := range names {
		visit(n)
	}
	return out
}
