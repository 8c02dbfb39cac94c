package engine

import (
	"context"

	"github.com/compose-spec/compose-go/v2/types"
)

// Watcher applies a Compose project's develop.watch rules (Compose
// Watch): on a real engine the Compose SDK's Watch (compose/sdk), in unit
// tests the fake engine. devenv renders the project and builds images; the
// watcher syncs, restarts and runs commands in the containers, and hands
// the services a rebuild rule's change concerns back to devenv.
type Watcher interface {
	// WatchProject applies the develop.watch rules of watch.Services until
	// ctx ends (nil) or the watch cannot go on (its error). A rule that
	// cannot be applied (a rebuild rule of a service without build:, an
	// initial sync that fails) fails the watch when it starts, as Compose
	// does; a failed sync, restart, exec or rebuild after a change is
	// reported and the watch goes on.
	WatchProject(ctx context.Context, watch ProjectWatch) error
}

// ProjectWatch is one watch of a project's develop.watch rules.
type ProjectWatch struct {
	// Project is the project as it runs: its services' develop sections,
	// paths absolute, with their build: sections (so their .dockerignore
	// applies, as in Compose).
	Project *types.Project
	// Services are the services of Project whose rules are applied.
	Services []string
	// Rebuild builds the images of services again and recreates their
	// containers: devenv's build and up, called after a change under one
	// of their rebuild rules, one call at a time. Its error is reported
	// and the watch goes on.
	Rebuild func(ctx context.Context, services []string) error
}
