package loader

import (
	"github.com/compose-spec/compose-go/v2/types"
)

// check is one compose key devenv does not apply as compose would.
type check struct {
	key    string
	set    func(s types.ServiceConfig) bool
	fatal  bool   // an error rather than a warning: running without it would behave differently
	advice string // what to do
}

// checks lists the keys devenv does not run as Compose would. Every other
// key reaches the Compose SDK as compose-go loaded it (compose/project
// renders compose services from compose-go's own value). Errors are keys
// whose absence would make the service behave differently in ways a
// person would not notice until it broke; warnings say what differs.
var checks = []check{
	{"scale", func(s types.ServiceConfig) bool { return s.Scale != nil && *s.Scale > 1 }, true,
		"devenv runs one container per service (exec, logs and jobs name it); remove scale or define one service per replica"},
	{"deploy", func(s types.ServiceConfig) bool {
		return s.Deploy != nil && s.Deploy.Replicas != nil && *s.Deploy.Replicas > 1
	}, true, "devenv runs one container per service (exec, logs and jobs name it); remove deploy.replicas"},
}

// checkKeys reports the unsupported keys service sets: errors and warnings.
func checkKeys(s types.ServiceConfig, pos *positions) (errs, warns []string) {
	for _, c := range checks {
		if !c.set(s) {
			continue
		}
		if c.fatal {
			errs = append(errs, pos.problem(s.Name, c.key, "%s is not supported: %s", c.key, c.advice))
			continue
		}
		warns = append(warns, pos.problem(s.Name, c.key, "%s works differently from Compose: %s", c.key, c.advice))
	}
	return errs, warns
}
