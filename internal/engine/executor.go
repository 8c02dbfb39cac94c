package engine

import (
	"context"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
)

// Executor runs a Compose project's containers: on a real engine the
// Compose SDK (compose/sdk), in unit tests the fake engine. devenv decides
// what has to change (envs/reconcile) and checks its guarantees around the
// call; the executor only converges the containers it is given.
type Executor interface {
	// ServiceHash is Compose's config hash of a service, the value of the
	// com.docker.compose.config-hash label on its container.
	ServiceHash(types.ServiceConfig) (string, error)
	// RunProject creates, recreates and starts the containers of the
	// project's services (only those: dependencies left out of the project
	// are taken as they are), in dependency order, and says what it did to
	// each one's container; with run.DryRun it changes nothing and says
	// what it would do.
	RunProject(ctx context.Context, run ProjectRun) (Decisions, error)
	// StopProject stops the containers of the project's services named in
	// stop.Services, dependents first, as Compose's stop does: each
	// service's pre_stop hooks run first, and a container waits its
	// service's stop_grace_period (or stop.Timeout) before it is killed.
	StopProject(ctx context.Context, stop ProjectStop) error
	// StartProject starts the stopped containers of the project's services
	// named in start.Services (only those: the others are left as they
	// are), dependencies first, as Compose's start does: each waits for
	// the depends_on conditions of the services started with it, gets its
	// configs and secrets copied in, and runs its post_start hooks.
	StartProject(ctx context.Context, start ProjectStart) error
	// RemoveProject removes the stopped containers of the services named
	// in rm.Services, as Compose's rm does; with rm.Stop their running
	// containers are stopped first (pre_stop hooks, stop_grace_period or
	// rm.Timeout). A running container is never removed without Stop.
	RemoveProject(ctx context.Context, rm ProjectRemove) error
	// DownProject stops and removes the containers of every service of
	// the project, dependents first, as Compose's down does (pre_stop
	// hooks, stop_grace_period or down.Timeout), and its orphans when
	// down.RemoveOrphans is set; of the networks and volumes it removes
	// only those the project does not declare external.
	DownProject(ctx context.Context, down ProjectDown) error
}

// ProjectStart is one start of some of a project's services.
type ProjectStart struct {
	Project  *types.Project
	Services []string // services of Project; their stopped containers are started
}

// ProjectRemove is one removal of some of a project's services' containers.
type ProjectRemove struct {
	Project  *types.Project
	Services []string // services of Project; their stopped containers are removed
	// Stop stops the services' running containers first, so they are
	// removed too; Timeout, when set, replaces their stop_grace_period.
	Stop    bool
	Timeout *time.Duration
	// Volumes also removes the containers' anonymous volumes.
	Volumes bool
}

// ProjectDown is one take-down of a whole project's containers.
type ProjectDown struct {
	Project *types.Project
	// RemoveOrphans also removes the containers of the Compose project
	// whose services Project no longer has.
	RemoveOrphans bool
	// Volumes also removes the containers' anonymous volumes and the
	// project's volumes that are not external.
	Volumes bool
	// Timeout, when set, replaces every service's stop_grace_period.
	Timeout *time.Duration
}

// ProjectStop is one stop of some of a project's services.
type ProjectStop struct {
	Project  *types.Project
	Services []string // services of Project; their containers are stopped
	// Timeout, when set, replaces every service's stop_grace_period.
	Timeout *time.Duration
}

// ProjectRun is one convergence of a project's containers.
type ProjectRun struct {
	// Project holds the services to converge; its networks and volumes
	// exist (devenv made them) or are made by the executor.
	Project *types.Project
	// Force recreates the containers of Forced even when nothing changed;
	// the others are recreated only when their config hash differs.
	Forced []string
	// NoStart creates the containers without starting them.
	NoStart bool
	// StopTimeout is how long a container being recreated has to stop.
	StopTimeout time.Duration
	// DryRun decides as a run would, on the engine's containers as they
	// are, and changes nothing (the Compose SDK's own dry run).
	DryRun bool
}

// Decisions are what a run did, or with DryRun would do, to the container
// of each service it converged: service name -> DecidedCreated,
// DecidedRecreated, DecidedStarted or DecidedUnchanged (left running, or
// left stopped with NoStart).
type Decisions map[string]string

// The decisions of a run, in the words of devenv's changes.
const (
	DecidedCreated   = "created"
	DecidedRecreated = "recreated"
	DecidedStarted   = "started"
	DecidedUnchanged = "unchanged"
	// DecidedRemoved: an orphan's container, removed (Compose's
	// --remove-orphans; devenv's own runs leave orphans to it).
	DecidedRemoved = "removed"
)
