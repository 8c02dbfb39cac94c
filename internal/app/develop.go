package app

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/remote"
)

// Compose Watch's actions.
const (
	actionSync        = "sync"
	actionSyncRestart = "sync+restart"
	actionSyncExec    = "sync+exec"
	actionRestart     = "restart"
	actionRebuild     = "rebuild"
)

// maxExecOutput bounds what a sync+exec command's output devenv keeps.
const maxExecOutput = 64 << 10

// DevelopSync is one develop.watch rule's change and what was done for it.
type DevelopSync struct {
	Service string
	Action  string // sync, sync+restart, sync+exec, restart, rebuild
	Target  string
	Path    string // the rule's path, relative to the project directory
	Change  remote.Change
	// Restarted: the service's container was restarted (sync+restart, restart).
	Restarted bool
	// Exec is the sync+exec command run, with its exit code and output.
	Exec     []string
	ExitCode int
	Output   string
	// Rebuilt are what the rebuild's up did (built, recreated, ...).
	Rebuilt []reconcile.Change
	// Err is why the action after the change failed; the watch goes on.
	Err error
}

// startDevelop applies the compose services' develop.watch rules on the
// remote engine, each rule polled every interval, until the returned stop
// is called. A rule that cannot start or whose sync fails is warned and
// dropped; the others go on. rules is how many rules are watched.
func (p *Project) startDevelop(ctx context.Context, svcs []compose.Service, running []engine.Object, o WatchOptions) (stop func(), rules int) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, cs := range svcs {
		id := containerOf(running, cs.Name)
		for _, r := range cs.Watch {
			s, err := p.ruleWatcher(ctx, cs, id, r)
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
					p.out.Warn("develop.watch of %s (%s): %v; this rule is not watched any more", svc, rel(p.Spec.Dir, r.Path), err)
				}
			}(cs.Name, r)
		}
	}
	return func() { cancel(); wg.Wait() }, rules
}

// ruleWatcher is what notices a rule's changes: a syncer into the
// service's running container (id) for the sync actions, a watcher that
// sends nothing for restart and rebuild.
func (p *Project) ruleWatcher(ctx context.Context, cs compose.Service, id string, r compose.WatchRule) (*remote.Syncer, error) {
	svc := cs.Name
	switch r.Action {
	case actionRebuild:
		if cs.Build == nil {
			return nil, fmt.Errorf("the rebuild rule of %s: %s has no build: section to build its image from; add one, or use sync or restart", rel(p.Spec.Dir, r.Path), svc)
		}
		return remote.NewPathWatcher(r.Path, r.Ignore)
	case actionRestart:
		return remote.NewPathWatcher(r.Path, r.Ignore)
	case actionSync, actionSyncRestart, actionSyncExec:
	default:
		return nil, fmt.Errorf("unknown action %q for %s (Compose Watch's are sync, sync+restart, sync+exec, restart and rebuild)", r.Action, rel(p.Spec.Dir, r.Path))
	}
	if r.Action == actionSyncExec && (r.Exec == nil || len(r.Exec.Command) == 0) {
		return nil, fmt.Errorf("the sync+exec rule of %s has no exec.command: add the command to run after each sync", rel(p.Spec.Dir, r.Path))
	}
	if id == "" {
		return nil, fmt.Errorf("no running container, so %s is not synced; start it with `devenv up %s`", rel(p.Spec.Dir, r.Path), svc)
	}
	return remote.NewPathSyncer(ctx, p.eng, r.Path, id, r.Target, r.Ignore, r.InitialSync)
}

// developChanged does a rule's action after a change (the sync itself is
// done for the sync actions) and reports it. A failed restart drops the
// rule (its error); a failed exec or rebuild is reported and the watch goes
// on.
func (p *Project) developChanged(ctx context.Context, svc string, r compose.WatchRule, ch remote.Change, o WatchOptions) error {
	ds := DevelopSync{Service: svc, Action: r.Action, Target: r.Target, Path: rel(p.Spec.Dir, r.Path), Change: ch}
	switch r.Action {
	case actionSyncRestart, actionRestart:
		if _, err := p.Restart(ctx, ServiceOptions{Services: []string{svc}}); err != nil {
			return fmt.Errorf("restart after the change: %w", err)
		}
		ds.Restarted = true
	case actionSyncExec:
		ds.Exec = r.Exec.Command
		ds.ExitCode, ds.Output, ds.Err = p.developExec(ctx, svc, r.Exec)
	case actionRebuild:
		ds.Rebuilt, ds.Err = p.developRebuild(ctx, svc)
	}
	if o.DevelopSynced != nil {
		o.DevelopSynced(ds)
	}
	return nil
}

// developExec runs a sync+exec rule's command in the service's container,
// its output (stdout and stderr, at most maxExecOutput bytes) kept.
func (p *Project) developExec(ctx context.Context, svc string, x *compose.WatchExec) (int, string, error) {
	var out bytes.Buffer
	w := &limitWriter{w: &out, left: maxExecOutput}
	code, err := p.eng.Exec(ctx, p.containerOf(ctx, p.eng, svc), engine.ExecOptions{
		Cmd: x.Command, User: x.User, WorkingDir: x.WorkingDir, Env: x.Env, Stdout: w, Stderr: w})
	if err != nil {
		return code, out.String(), fmt.Errorf("run %s in %s: %w", strings.Join(x.Command, " "), svc, err)
	}
	return code, out.String(), nil
}

// developRebuild builds the service's image again and recreates its
// container when the image changed: what `devenv up SERVICE` does (up
// builds what changed), without the services it depends on.
func (p *Project) developRebuild(ctx context.Context, svc string) ([]reconcile.Change, error) {
	res, err := p.Up(ctx, UpOptions{Services: []string{svc}, NoDeps: true})
	if err != nil {
		return nil, fmt.Errorf("rebuild %s: %w", svc, err)
	}
	return res.Changes, nil
}

// containerOf is service's running container, "" when none: its name
// (which a recreated container, after a rebuild, keeps), else its id.
func containerOf(running []engine.Object, service string) string {
	i := slices.IndexFunc(running, func(c engine.Object) bool { return c.Labels[labels.Service] == service })
	if i < 0 {
		return ""
	}
	if n := strings.TrimPrefix(running[i].Name, "/"); n != "" {
		return n
	}
	return running[i].ID
}

// composeWatch loads the compose services that have develop.watch rules;
// none when the project has no compose files.
func (p *Project) composeWatch(ctx context.Context) ([]compose.Service, error) {
	if len(p.Spec.Compose) == 0 {
		return nil, nil
	}
	svcs, err := loader.Load(ctx, p.Spec.Compose, p.Spec.Dir, p.Spec.Name, nil)
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
