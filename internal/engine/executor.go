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
	// are taken as they are), in dependency order.
	RunProject(ctx context.Context, run ProjectRun) error
	// StopProject stops the containers of the project's services named in
	// stop.Services, dependents first, as Compose's stop does: each
	// service's pre_stop hooks run first, and a container waits its
	// service's stop_grace_period (or stop.Timeout) before it is killed.
	StopProject(ctx context.Context, stop ProjectStop) error
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
	// Specs are the plan's containers by service, for an executor that
	// runs container specs rather than a Compose project (the fake
	// engine); the Compose SDK reads only Project.
	Specs map[string]ContainerSpec
}
