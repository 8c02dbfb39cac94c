package app

import (
	"context"
	"slices"
	"time"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/labels"
)

// ServiceOptions steer Stop, Start, Restart and Rm.
type ServiceOptions struct {
	Services []string // only these services (a Spark service's workers go with it); empty: all
	// Timeout is how long a stop waits before killing (0: at once); nil:
	// the stop_grace_period, else 10s.
	Timeout *time.Duration
	Stop    bool // rm: stop running containers first
	DryRun  bool // report what would change and change nothing
	// LockTimeout bounds the wait for another devenv changing the project; 0: until ctx ends.
	LockTimeout time.Duration
}

// Stop stops the services' running containers, dependents first.
func (p *Project) Stop(ctx context.Context, o ServiceOptions) (*Result, error) {
	return p.perService(ctx, o, (*reconcile.Runner).Stop)
}

// Start starts the services' stopped containers, dependencies first; it
// creates nothing (that is up).
func (p *Project) Start(ctx context.Context, o ServiceOptions) (*Result, error) {
	return p.perService(ctx, o, func(r *reconcile.Runner, ctx context.Context, sel reconcile.Selection) ([]reconcile.Change, error) {
		sel.BeforeStart = p.portsFreeToStart
		return r.Start(ctx, sel)
	})
}

// Restart stops and starts the services' containers.
func (p *Project) Restart(ctx context.Context, o ServiceOptions) (*Result, error) {
	return p.perService(ctx, o, func(r *reconcile.Runner, ctx context.Context, sel reconcile.Selection) ([]reconcile.Change, error) {
		sel.BeforeStart = p.portsFreeToStart
		return r.Restart(ctx, sel)
	})
}

// portsFreeToStart refuses, as up does, to start containers whose host
// ports another container or program holds, naming it and a free port,
// before any container is stopped or started.
func (p *Project) portsFreeToStart(ctx context.Context, starting []engine.Object) error {
	var wants []doctor.PortWant
	for _, o := range starting {
		st, err := p.eng.Inspect(ctx, o.ID)
		if err != nil {
			return err
		}
		where := FileName
		if f := o.Labels[labels.ComposeFile]; f != "" {
			where = f
		}
		for _, b := range st.Bindings {
			wants = append(wants, doctor.PortWant{Service: o.Labels[labels.Service], Where: where,
				HostIP: b.HostIP, HostPort: b.HostPort, Protocol: b.Protocol})
		}
	}
	return doctor.PortsFree(ctx, p.eng, p.Spec.Name, wants, p.portFree(), p.portOwner(), "nothing was started")
}

// Rm removes the services' stopped containers (running ones too with Stop).
func (p *Project) Rm(ctx context.Context, o ServiceOptions) (*Result, error) {
	return p.perService(ctx, o, func(r *reconcile.Runner, ctx context.Context, sel reconcile.Selection) ([]reconcile.Change, error) {
		return r.Rm(ctx, sel, o.Stop)
	})
}

type verb func(r *reconcile.Runner, ctx context.Context, sel reconcile.Selection) ([]reconcile.Change, error)

// perService checks the names, connects, holds the project lock (unless a
// dry run, which changes nothing) and runs the verb on the selection (which
// refuses a project another directory owns), given the project's plan so
// that Compose stops, starts and removes the containers.
func (p *Project) perService(ctx context.Context, o ServiceOptions, do verb) (*Result, error) {
	if err := p.CheckServices(o.Services); err != nil {
		return nil, err
	}
	release, err := p.connectAndLock(ctx, o.DryRun, o.LockTimeout)
	if err != nil {
		return nil, err
	}
	defer release()
	sel := reconcile.Selection{Project: p.Spec.Name, Services: p.dependencyOrder(o.Services), Timeout: o.Timeout, DryRun: o.DryRun,
		Plan: p.stopPlan(ctx, o.DryRun)}
	ch, err := do(p.runner(nil), ctx, sel)
	if err != nil {
		return nil, err
	}
	return &Result{Project: p.Spec.Name, Changes: nonNil(ch), DryRun: o.DryRun}, nil
}

// stopPlan is the plan Compose stops, starts and removes the project's
// containers from (their services' hooks, stop_grace_period and
// depends_on), made as explain makes it: from devenv.lock, stale or not,
// else by resolution; nothing is written. Without one (nil: a dry run, or
// a devenv.yaml or lock that does not plan) devenv stops, starts and
// removes the containers with its own engine calls.
func (p *Project) stopPlan(ctx context.Context, dryRun bool) *plan.Plan {
	if dryRun {
		return nil
	}
	pl, err := p.Plan(ctx, PlanOptions{})
	if err != nil {
		p.out.Debugf("stopping, starting and removing with devenv's own engine calls (no hooks, no stop_grace_period): the project does not plan: %v", err)
		return nil
	}
	return pl.Plan
}

// dependencyOrder sorts names so a service comes after what it depends on:
// the compose services first (devenv's services depend on them, never the
// other way round), then devenv.yaml's by depends_on.
func (p *Project) dependencyOrder(names []string) []string {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []string
	for _, c := range p.Spec.ComposeServices {
		if want[c] {
			out = append(out, c)
		}
	}
	done := map[string]bool{}
	var visit func(n string)
	visit = func(n string) {
		s := p.Spec.Service(n)
		if done[n] || s == nil {
			return
		}
		done[n] = true
		for _, d := range s.DependsOn {
			visit(d)
		}
		if want[n] {
			out = append(out, n)
		}
	}
	for _, s := range p.Spec.Services {
		visit(s.Name)
	}
	return out
}

// checkDown refuses down SERVICE --volumes: named volumes belong to the
// whole project, so removing them with one service would break the rest.
func checkDown(o DownOptions) error {
	if len(o.Services) > 0 && o.Volumes {
		return exitcode.Newf(exitcode.Usage, "--volumes removes the project's named volumes, which every service shares: use it with devenv down alone, not with services")
	}
	return nil
}

// previewUp is up --dry-run after up's checks (Up): the changes up would
// make from what the engine has now, on the plan up would run. It writes
// nothing: no lock (a stale one is refused as with --frozen), no Jupyter
// token, no project lock, no engine object.
func (p *Project) previewUp(ctx context.Context, r *run, o UpOptions) (*Result, error) {
	res, err := r.runner.Up(ctx, r.plan.Plan, reconcile.UpOptions{Services: o.Services, NoStart: o.NoStart, DryRun: true,
		Build:         reconcile.BuildOptions{NoCache: o.NoCache, Pull: o.Pull, NeverPull: o.NeverPull, NoBuild: o.NoBuild},
		ForceRecreate: o.ForceRecreate, NoDeps: o.NoDeps, RemoveOrphans: o.RemoveOrphans})
	if err != nil {
		return nil, err
	}
	if err := p.previewLostGPUs(ctx, r, o, res.Changes); err != nil {
		return nil, err
	}
	return &Result{Project: p.Spec.Name, Changes: nonNil(res.Changes), Warnings: r.plan.Warnings, DryRun: true}, nil
}

// previewLostGPUs shows in changes what up does first to a container that
// lost its GPUs (recreateLostGPUs): it removes it, so the container is
// created again.
func (p *Project) previewLostGPUs(ctx context.Context, r *run, o UpOptions, changes []reconcile.Change) error {
	proj, err := r.compose()
	if err != nil {
		return err
	}
	if !hasGPUService(proj) {
		return nil
	}
	lost, err := p.lostGPUs(ctx, p.dependencyOrder(o.Services))
	if err != nil {
		return err
	}
	for _, c := range lost {
		for i := range changes {
			if ch := &changes[i]; ch.Service == c.Labels[labels.Service] && slices.Contains([]string{reconcile.Unchanged, reconcile.Started, reconcile.Recreated}, ch.Action) {
				ch.Action, ch.Detail = reconcile.Created, "container "+c.Name+" again: it lost its GPUs (\"Failed to initialize NVML: Unknown Error\" in its log), so up removes it first"
			}
		}
	}
	return nil
}

// OnlyService is the project's one service, for commands that need a
// service name only when there is a choice (devenv shell). With several it
// is a usage error that lists them.
func (p *Project) OnlyService() (string, error) {
	var all []string
	for _, s := range p.Spec.Services {
		all = append(all, s.Name)
	}
	all = append(all, p.Spec.ComposeServices...)
	if len(all) == 1 {
		return all[0], nil
	}
	return "", exitcode.Newf(exitcode.Usage, "this project has %d services %v: name the one to use", len(all), all)
}
