package enginetest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	composesdk "github.com/docker/compose/v5/pkg/compose"
)

var _ engine.Executor = (*Fake)(nil)

// ServiceHash is Compose's own config hash, as with the SDK.
func (f *Fake) ServiceHash(s types.ServiceConfig) (string, error) { return composesdk.ServiceHash(s) }

// RunProject converges the project's containers as the Compose SDK does,
// from the project alone (containerOf): in dependency order, a
// service whose container is missing is created, one whose config hash
// differs (or that is forced, or whose project network went away) is
// removed and created again, a stopped one is started, and a running one
// is left alone. Like the SDK it stops at the first error and leaves a
// container that failed to start as it is; with run.DryRun it decides
// the same and changes nothing. TestIntegrationConformance holds it to
// the SDK on the real engine.
func (f *Fake) RunProject(ctx context.Context, run engine.ProjectRun) (engine.Decisions, error) {
	out := engine.Decisions{}
	for _, name := range dependencyOrder(run.Project) {
		svc := run.Project.Services[name]
		spec, err := containerOf(run.Project, svc)
		if err != nil {
			return nil, err
		}
		hash, err := f.ServiceHash(svc)
		if err != nil {
			return nil, err
		}
		spec.Labels[labels.ComposeConfigHash] = hash
		spec.Labels[labels.ComposeNumber] = "1"
		if out[name], err = f.converge(ctx, spec, slices.Contains(run.Forced, name), run); err != nil {
			return nil, fmt.Errorf("service %s: %w", name, err)
		}
	}
	return out, nil
}

// converge makes the container of spec as RunProject says, and says what
// it did (with run.DryRun: would do, and does nothing).
func (f *Fake) converge(ctx context.Context, spec engine.ContainerSpec, forced bool, run engine.ProjectRun) (string, error) {
	cur, err := f.Inspect(ctx, spec.Name)
	found := err == nil
	decided := f.decide(cur, found, spec, forced, run)
	if run.DryRun || decided == engine.DecidedUnchanged {
		return decided, nil
	}
	if decided == engine.DecidedStarted {
		return decided, f.Start(ctx, cur.ID)
	}
	if found {
		if err := f.Stop(ctx, cur.ID, run.StopTimeout); err != nil {
			return "", err
		}
		if err := f.Remove(ctx, engine.Containers, cur.ID, false); err != nil {
			return "", err
		}
	}
	id, err := f.Create(ctx, spec)
	if err != nil || run.NoStart {
		return decided, err
	}
	return decided, f.Start(ctx, id)
}

// decide is what the SDK does to the container cur (found: it exists) of
// spec: a missing one is created, one whose config hash differs (or that
// is forced, or whose network went away) recreated, a stopped one started.
func (f *Fake) decide(cur engine.ContainerState, found bool, spec engine.ContainerSpec, forced bool, run engine.ProjectRun) string {
	switch {
	case !found:
		return engine.DecidedCreated
	case forced || cur.Labels[labels.ComposeConfigHash] != spec.Labels[labels.ComposeConfigHash] || !f.attached(cur):
		return engine.DecidedRecreated
	case cur.Running || run.NoStart:
		return engine.DecidedUnchanged
	}
	return engine.DecidedStarted
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

// StopProject stops the services' containers as the Compose SDK's Stop
// does: those Compose lists for the project (its project and service
// labels, a config hash, not one-off), dependents first; a running one
// has its service's pre_stop hooks run (through Exec, so ExecFunc sees
// them; a non-zero exit fails the stop) and is then stopped with
// stop.Timeout or its service's stop_grace_period. The call is recorded
// as "StopProject" with stop as its argument.
func (f *Fake) StopProject(ctx context.Context, stop engine.ProjectStop) error {
	f.mu.Lock()
	err := f.record("StopProject", stop)
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return f.stopServices(ctx, stop)
}

// stopServices is StopProject's stop, unrecorded (RemoveProject's too).
func (f *Fake) stopServices(ctx context.Context, stop engine.ProjectStop) error {
	order := dependencyOrder(stop.Project)
	for i := len(order) - 1; i >= 0; i-- {
		name := order[i]
		if !slices.Contains(stop.Services, name) {
			continue
		}
		svc := stop.Project.Services[name]
		for _, c := range f.composeContainers(stop.Project.Name, name) {
			if err := f.stopService(ctx, c, svc, stop.Timeout); err != nil {
				return fmt.Errorf("service %s: %w", name, err)
			}
		}
	}
	return nil
}

func (f *Fake) stopService(ctx context.Context, c engine.Object, svc types.ServiceConfig, timeout *time.Duration) error {
	if c.State != "running" {
		return nil
	}
	if err := f.runHooks(ctx, c, "pre_stop", svc.PreStop); err != nil {
		return err
	}
	t := 10 * time.Second
	switch {
	case timeout != nil:
		t = *timeout
	case svc.StopGracePeriod != nil:
		t = time.Duration(*svc.StopGracePeriod)
	}
	return f.Stop(ctx, c.ID, t)
}

// runHooks runs a service's hooks of one kind (pre_stop, post_start) in
// container c through Exec, so ExecFunc sees them; a non-zero exit fails
// them, naming the container.
func (f *Fake) runHooks(ctx context.Context, c engine.Object, kind string, hooks []types.ServiceHook) error {
	for _, h := range hooks {
		code, err := f.Exec(ctx, c.ID, engine.ExecOptions{Cmd: h.Command, User: h.User, WorkingDir: h.WorkingDir, Env: envList(h.Environment)})
		if err != nil {
			return err
		}
		if code != 0 {
			return fmt.Errorf("%s hook of %s exited with code %d", kind, c.Name, code)
		}
	}
	return nil
}

// composeContainers is what Compose lists as the service's containers.
func (f *Fake) composeContainers(project, service string) []engine.Object {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []engine.Object
	want := map[string]string{labels.ComposeProject: project, labels.ComposeService: service, labels.ComposeOneoff: "False", labels.ComposeConfigHash: ""}
	for _, o := range f.objects[engine.Containers] {
		if hasLabels(o.obj.Labels, want) {
			out = append(out, o.listed())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// envList is a hook's environment as an exec takes it, sorted.
func envList(env types.MappingWithEquals) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		if v == nil {
			out = append(out, k)
			continue
		}
		out = append(out, k+"="+*v)
	}
	sort.Strings(out)
	return out
}
