package app

import (
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// PsOptions say which containers Ps lists (ps --status, --filter and
// --orphans); the zero value lists them all.
type PsOptions struct {
	States    []string // only containers in one of these states; any state when empty
	Filter    string   // Compose's --filter: status=STATE, one more state
	NoOrphans bool     // leave out the containers of services the project no longer has
}

// psStates are the states ps --status and --filter status= take, as
// Compose lists them.
func psStates() []string {
	return []string{"paused", "restarting", "removing", "running", "dead", "created", "exited"}
}

// psFilter is which containers Ps keeps: those in the states o names (any,
// when none), and with NoOrphans only those of a service the project has.
func (p *Project) psFilter(o PsOptions) (func(reconcile.Status) bool, error) {
	states := slices.Clone(o.States)
	if o.Filter != "" {
		key, v, ok := strings.Cut(o.Filter, "=")
		if !ok || key != "status" {
			return nil, exitcode.Newf(exitcode.Usage, "ps --filter %q: the filter devenv (and Compose) takes is status=STATE", o.Filter)
		}
		states = append(states, v)
	}
	known := psStates()
	for _, s := range states {
		if !slices.Contains(known, s) {
			return nil, exitcode.Newf(exitcode.Usage, "ps: status %q is not a container state (%s)", s, strings.Join(known, ", "))
		}
	}
	services := p.ServiceNames()
	return func(s reconcile.Status) bool {
		return (len(states) == 0 || slices.Contains(states, s.State)) && (!o.NoOrphans || slices.Contains(services, s.Service))
	}, nil
}
