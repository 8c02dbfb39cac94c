package project

import (
	"fmt"
	"sort"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// hashFunc is Compose's service config hash (the SDK's compose.ServiceHash).
type hashFunc func(types.ServiceConfig) (string, error)

// diverged is what the SDK must still do after an up: the services of proj
// whose container (listed: the project's containers) is missing, not
// running, or carries another Compose config hash than hash gives the
// service. (envs/reconcile's decide is devenv's one decision; this checks
// the SDK's side of it.)
func diverged(proj *types.Project, listed []engine.Object, hash hashFunc) ([]string, error) {
	byName := map[string]engine.Object{}
	for _, o := range listed {
		byName[o.Name] = o
	}
	var out []string
	for name, svc := range proj.Services {
		c, ok := byName[svc.ContainerName]
		if !ok || c.State != "running" {
			out = append(out, name)
			continue
		}
		h, err := hash(svc)
		if err != nil {
			return nil, fmt.Errorf("service %s: %w", name, err)
		}
		if c.Labels[labels.ComposeConfigHash] != h {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out, nil
}
