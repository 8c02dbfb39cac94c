package app

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/remote"
)

// Compose Watch's actions.
const (
	actionSync        = "sync"
	actionSyncRestart = "sync+restart"
)

// DevelopSync is one develop.watch sync that sent or removed files.
type DevelopSync struct {
	Service   string
	Action    string // sync or sync+restart
	Target    string
	Change    remote.Change
	Restarted bool
}

// startDevelop applies the compose services' develop.watch sync and
// sync+restart rules on the remote engine, each rule polled every
// interval, until the returned stop is called; rebuild, restart and
// sync+exec are named once as not applied. A rule that fails is warned and
// dropped; the others go on. rules is how many rules sync.
func (p *Project) startDevelop(ctx context.Context, svcs []compose.Service, running []engine.Object, o WatchOptions) (stop func(), rules int) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, cs := range svcs {
		id := containerOf(running, cs.Name)
		for _, r := range cs.Watch {
			if r.Action != actionSync && r.Action != actionSyncRestart {
				p.out.Warn("develop.watch of %s: the %s action (%s) is not applied on a remote engine by devenv watch; after such a change run `devenv up --build %s`", cs.Name, r.Action, r.Path, cs.Name)
				continue
			}
			if id == "" {
				p.out.Warn("develop.watch of %s: no running container, so %s is not synced; start it with `devenv up %s`", cs.Name, r.Path, cs.Name)
				continue
			}
			s, err := remote.NewPathSyncer(ctx, p.eng, r.Path, id, r.Target, r.Ignore, r.InitialSync)
			if err != nil {
				p.out.Warn("develop.watch of %s: %v", cs.Name, err)
				continue
			}
			wg.Add(1)
			rules++
			go func(svc string, r compose.WatchRule) {
				defer wg.Done()
				err := s.Watch(ctx, o.Interval, func(ch remote.Change) error {
					return p.developChanged(ctx, svc, r, ch, o)
				})
				if err != nil && ctx.Err() == nil {
					p.out.Warn("develop.watch of %s (%s): %v; this rule is not synced any more", svc, rel(p.Spec.Dir, r.Path), err)
				}
			}(cs.Name, r)
		}
	}
	return func() { cancel(); wg.Wait() }, rules
}

// developChanged reports a rule's sync and, for sync+restart, restarts the
// service's container (the synced files stay in it).
func (p *Project) developChanged(ctx context.Context, svc string, r compose.WatchRule, ch remote.Change, o WatchOptions) error {
	ds := DevelopSync{Service: svc, Action: r.Action, Target: r.Target, Change: ch}
	if r.Action == actionSyncRestart {
		if _, err := p.Restart(ctx, ServiceOptions{Services: []string{svc}}); err != nil {
			return fmt.Errorf("restart after the sync: %w", err)
		}
		ds.Restarted = true
	}
	if o.DevelopSynced != nil {
		o.DevelopSynced(ds)
	}
	return nil
}

// containerOf is the id of service's running container, "" when none.
func containerOf(running []engine.Object, service string) string {
	i := slices.IndexFunc(running, func(c engine.Object) bool { return c.Labels[labels.Service] == service })
	if i < 0 {
		return ""
	}
	return running[i].ID
}

// composeWatch loads the compose services that have develop.watch rules;
// none when the project has no compose files.
func (p *Project) composeWatch(ctx context.Context) ([]compose.Service, error) {
	if len(p.Spec.Compose) == 0 {
		return nil, nil
	}
	svcs, err := compose.Load(ctx, p.Spec.Compose, p.Spec.Dir, p.Spec.Name, nil)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(svcs, func(s compose.Service) bool { return len(s.Watch) == 0 }), nil
}

func rel(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil {
		return r
	}
	return p
}
