// Package reconcile brings the Docker engine to a plan: it pulls and builds
// images only when their inputs changed, then creates, recreates, starts and
// removes the project's containers, touching only objects that carry this
// project's label. It also lists (ps) and tears down (down) a project.
package reconcile

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/fetch"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/internal/ui"
)

// Runner holds what reconciliation needs.
type Runner struct {
	Eng engine.Engine
	// Exec converges the project's containers: the Compose SDK on a real
	// engine (compose/sdk), the fake engine itself in unit tests.
	Exec    engine.Executor
	Out     *ui.Printer
	Cache   *fetch.Cache
	Mirrors sources.Mirrors
	// Proxies are the docker CLI's proxies as build arguments
	// (dockerproxy.BuildArgs), passed to every image build.
	Proxies  map[string]string
	StateDir string     // <project>/.devenv
	Lock     *lock.File // the lock the plan was made from
	// StopTimeout is how long down and a recreate give a container to stop
	// before killing it (Compose's -t; 0 kills at once); nil: Compose
	// gives each its service's stop_grace_period, devenv's own calls 10
	// seconds.
	StopTimeout *time.Duration
	// Gone reports whether a project directory a label names holds no
	// devenv project any more (moved or deleted): its objects are this
	// directory's to take over (DirGone); nil: none is.
	Gone func(dir string) bool
	// ComposeVersion is the Compose SDK's version (compose/sdk.Version),
	// written in Compose's com.docker.compose.version labels of the
	// containers and of the images of compose builds; "" leaves it out.
	ComposeVersion string

	adoptSaid bool // the adoption of a moved project's objects was said
}

func (r *Runner) stopTimeout() time.Duration { return orTenSeconds(r.StopTimeout) }

// orTenSeconds is timeout as given (zero included), else Compose's 10 s.
func orTenSeconds(timeout *time.Duration) time.Duration {
	if timeout != nil {
		return *timeout
	}
	return 10 * time.Second
}

// Change is what happened to one object.
type Change struct {
	Service string `json:"service"`
	Action  string `json:"action"` // built, pulled, created, recreated, started, unchanged, removed, stopped
	Detail  string `json:"detail,omitempty"`
}

// Actions.
const (
	Built     = "built"
	Pulled    = "pulled"
	Created   = "created"
	Recreated = "recreated"
	Started   = "started"
	Unchanged = "unchanged"
	Removed   = "removed"
)

// selectServices returns the planned services named (all when none) plus,
// unless noDeps, everything they depend on, dependencies first.
func selectServices(pl *plan.Plan, names []string, noDeps bool) ([]*plan.Service, error) {
	if len(names) == 0 {
		return pl.Services, nil
	}
	want := map[string]bool{}
	var add func(n string) error
	add = func(n string) error {
		s := pl.Service(n)
		if s == nil {
			return fmt.Errorf("no service %q in this project", n)
		}
		if want[n] {
			return nil
		}
		want[n] = true
		if noDeps {
			return nil
		}
		for _, d := range s.DependsOn {
			if pl.Service(d) != nil {
				if err := add(d); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, n := range names {
		if err := add(n); err != nil {
			return nil, err
		}
	}
	var out []*plan.Service
	for _, s := range pl.Services {
		if want[s.Name] || want[s.Replica] {
			out = append(out, s)
		}
	}
	return out, nil
}

// projectObjects lists the objects of kind carrying this project's label.
func (r *Runner) projectObjects(ctx context.Context, kind engine.Kind, project string) ([]engine.Object, error) {
	objs, err := r.Eng.List(ctx, kind, map[string]string{labels.Project: project})
	if err != nil {
		return nil, err
	}
	var out []engine.Object // belt and braces: never act on an object without the label
	for _, o := range objs {
		if o.Labels[labels.Project] == project {
			out = append(out, o)
		}
	}
	return out, nil
}

func isNotFound(err error) bool { return errors.Is(err, engine.ErrNotFound) }
