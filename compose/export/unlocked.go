package export

import (
	"context"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	nolock "github.com/devenv-dev/devenv/envs/unlocked"
)

// UnlockedTag is the tag of images devenv builds, in exports made before
// the project was locked (unlocked.Tag).
const UnlockedTag = nolock.Tag

// Unlocked is the in-memory stand-in for devenv.lock of a project never
// locked (unlocked.Lock).
func Unlocked(ctx context.Context, p *spec.Project, machineDriver string) (*lock.File, error) {
	return nolock.Lock(ctx, p, machineDriver)
}

// PlanUnlocked plans a project that has no devenv.lock (unlocked.Plan).
func PlanUnlocked(p *spec.Project, h plan.Host, opts plan.Options) (*plan.Plan, error) {
	return nolock.Plan(p, h, opts)
}
