// Package sdk runs devenv's Compose project with the Compose SDK
// (github.com/docker/compose/v5/pkg/compose, the code `docker compose`
// runs) on the engine devenv resolved. It is devenv's executor on a real
// engine: envs/reconcile decides what changes and checks devenv's
// guarantees around the call; the SDK creates, recreates and starts the
// containers exactly as Compose does (networks attached, configs copied,
// GPU device requests, hooks), and its events are shown by devenv's UI.
package sdk

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/endpoint/dockercli"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/cli/cli/command"
	"github.com/docker/compose/v5/pkg/api"
	composesdk "github.com/docker/compose/v5/pkg/compose"
)

// Executor is the Compose SDK on one engine. The SDK and its docker CLI
// value are made on first use: a command that finds nothing to change
// never pays for them.
type Executor struct {
	ep     *endpoint.Endpoint
	opts   endpoint.Options
	events *events

	once    sync.Once
	cli     *command.DockerCli
	service api.Compose
	err     error
}

// New is the executor for the engine ep (resolved with opts), reporting
// the SDK's progress as events to emit (nil: to no one). It prints
// nothing itself.
func New(ep *endpoint.Endpoint, opts endpoint.Options, emit engine.ExecEvents) *Executor {
	return &Executor{ep: ep, opts: opts, events: &events{emit: emit}}
}

// ServiceHash is Compose's own config hash of a service.
func (x *Executor) ServiceHash(s types.ServiceConfig) (string, error) {
	return composesdk.ServiceHash(s)
}

func (x *Executor) compose() (api.Compose, error) {
	x.once.Do(func() {
		if x.ep == nil {
			x.err = fmt.Errorf("the Compose SDK needs the engine's address, and this engine gave none")
			return
		}
		if x.cli, x.err = dockercli.New(x.ep, x.opts, dockercli.CLIOptions{Answer: engine.AnswerTimeout()}); x.err != nil {
			return
		}
		x.service, x.err = composesdk.NewComposeService(x.cli,
			composesdk.WithEventProcessor(x.events),
			composesdk.WithPrompt(composesdk.AlwaysOkPrompt()))
	})
	return x.service, x.err
}

// dryRun is the SDK in its own dry-run mode (composesdk.WithDryRun: its
// reconcile and plan on the engine's containers as they are, every call
// that would change them faked), its events read by d alone.
func (x *Executor) dryRun(d *DecisionLog) (api.Compose, error) {
	if _, err := x.compose(); err != nil {
		return nil, err
	}
	return composesdk.NewComposeService(x.cli, composesdk.WithDryRun,
		composesdk.WithEventProcessor(&events{rec: d}),
		composesdk.WithPrompt(composesdk.AlwaysOkPrompt()))
}

// RunProject converges run.Project's containers with the SDK's Up: the
// services in run.Forced are recreated, the others only when their config
// hash diverged. Orphans are devenv's to name or remove, images devenv's
// to build or pull (the SDK never pulls or builds here), and waiting for
// health devenv's own, so Up returns once the containers are started.
func (x *Executor) RunProject(ctx context.Context, run engine.ProjectRun) (engine.Decisions, error) {
	proj := runnable(run.Project)
	d := NewDecisionLog(proj)
	var c api.Compose
	var err error
	if run.DryRun {
		c, err = x.dryRun(d)
	} else {
		c, err = x.compose()
		x.events.record(d)
		defer x.events.record(nil)
	}
	if err != nil {
		return nil, err
	}
	create := api.CreateOptions{
		Recreate: api.RecreateDiverged, RecreateDependencies: api.RecreateDiverged,
		IgnoreOrphans: true, QuietPull: true, Inherit: true,
	}
	if len(run.Forced) > 0 {
		create.Services, create.Recreate = run.Forced, api.RecreateForce
	}
	if run.StopTimeout > 0 {
		t := run.StopTimeout
		create.Timeout = &t
	}
	op, err := "start the containers", error(nil)
	if run.NoStart {
		op, err = "create the containers", c.Create(ctx, proj, create)
	} else {
		err = c.Up(ctx, proj, api.UpOptions{Create: create, Start: api.StartOptions{Project: proj}})
	}
	if err != nil {
		return nil, x.classify(op, err)
	}
	return d.Result(), nil
}

// StopProject stops the services' containers with the SDK's Stop, which
// runs their pre_stop hooks and waits each one's stop_grace_period (or
// stop.Timeout) before killing it.
func (x *Executor) StopProject(ctx context.Context, stop engine.ProjectStop) error {
	c, err := x.compose()
	if err != nil {
		return err
	}
	err = c.Stop(ctx, stop.Project.Name, api.StopOptions{Project: stop.Project, Services: stop.Services, Timeout: stop.Timeout})
	return x.classify("stop the containers", err)
}

// StartProject starts the services' stopped containers with the SDK's
// Start, on the project narrowed to those services (Start starts every
// service of the project it is given): dependencies first, each after the
// depends_on conditions of those started with it, with its configs copied
// in and its post_start hooks run.
func (x *Executor) StartProject(ctx context.Context, start engine.ProjectStart) error {
	c, err := x.compose()
	if err != nil {
		return err
	}
	proj, err := start.Project.WithSelectedServices(start.Services, types.IgnoreDependencies)
	if err != nil {
		return err
	}
	return x.classify("start the containers", c.Start(ctx, proj.Name, api.StartOptions{Project: proj}))
}

// RemoveProject removes the services' stopped containers with the SDK's
// Remove (running ones too with rm.Stop, stopped first by the SDK's Stop).
// A timeout is not an option of Remove's own stop, so with one the SDK's
// Stop runs first, as Remove would run it. Force stays off: devenv asks no
// question (the prompt always agrees, and Force would print Compose's
// "Going to remove" on devenv's standard output), and the engine refuses
// to remove a container that started in the meantime instead of killing
// it. Nothing left to remove is no error.
func (x *Executor) RemoveProject(ctx context.Context, rm engine.ProjectRemove) error {
	c, err := x.compose()
	if err != nil {
		return err
	}
	stop := rm.Stop
	if stop && rm.Timeout != nil {
		err = c.Stop(ctx, rm.Project.Name, api.StopOptions{Project: rm.Project, Services: rm.Services, Timeout: rm.Timeout})
		if err != nil {
			return x.classify("stop the containers", err)
		}
		stop = false
	}
	err = c.Remove(ctx, rm.Project.Name, api.RemoveOptions{Project: rm.Project, Services: rm.Services, Stop: stop, Volumes: rm.Volumes})
	if errors.Is(err, api.ErrNoResources) {
		return nil
	}
	return x.classify("remove the containers", err)
}

// DownProject takes the project's containers down with the SDK's Down:
// dependents first, pre_stop hooks, stop_grace_period unless down.Timeout,
// orphans with down.RemoveOrphans; networks and volumes only where the
// project does not declare them external. Images are devenv's (--rmi):
// the SDK removes none.
func (x *Executor) DownProject(ctx context.Context, down engine.ProjectDown) error {
	c, err := x.compose()
	if err != nil {
		return err
	}
	err = c.Down(ctx, down.Project.Name, api.DownOptions{Project: down.Project, RemoveOrphans: down.RemoveOrphans,
		Volumes: down.Volumes, Timeout: down.Timeout, Images: ""})
	return x.classify("remove the containers", err)
}

// classify gives the SDK's errors devenv's sentinels and hints (no GPU
// runtime, engine unreachable, name conflict), so exit codes and advice
// are the same as for devenv's own calls.
func (x *Executor) classify(op string, err error) error {
	return engine.Classify(op, x.ep.String(), err)
}

// runnable is proj as the SDK runs it here: devenv built or pulled every
// image before (through its mirrors, with its cache), so the SDK neither
// builds nor pulls. Neither key is part of Compose's config hash.
func runnable(proj *types.Project) *types.Project {
	out := *proj
	out.Services = types.Services{}
	for name, s := range proj.Services {
		s.Build = nil
		s.PullPolicy = types.PullPolicyNever
		out.Services[name] = s
	}
	return &out
}
