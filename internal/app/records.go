package app

import (
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/jobs"
	"github.com/devenv-dev/devenv/internal/remote"
)

// The records the use cases hand their callers, named in app. Each is an
// alias of the type the package that makes it defines, not a copy: app
// adds nothing to them, the views render these very types, and a copy
// would be one more struct to keep in step.
type (
	// Job is a job submit queued (devenv jobs lists them).
	Job = jobs.Job
	// ContainerStatus is a container as Ps lists it.
	ContainerStatus = reconcile.Status
	// Copied is what CopyIn and CopyOut copied.
	Copied = remote.Copied
	// Forward is a service's port that Watch forwards to this machine.
	Forward = remote.Forward
	// SyncChange is one sync of the project into a remote engine's
	// workspace: what Watch sent, removed and skipped.
	SyncChange = remote.Change
)
