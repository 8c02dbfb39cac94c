package project

import (
	"fmt"
	"sort"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// HashFunc is Compose's service config hash (the SDK's
// compose.ServiceHash), passed in so that this package does not link the SDK.
type HashFunc func(types.ServiceConfig) (string, error)

// Diverged is the fast no-op check before calling the SDK: the services of
// proj whose container (listed: the project's containers, one List call)
// is missing, not running, or carries another Compose config hash than
// hash gives the service. Empty means up has nothing to do, and the SDK,
// whose Up waits at least 500 ms even then, is not called.
func Diverged(proj *types.Project, listed []engine.Object, hash HashFunc) ([]string, error) {
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
