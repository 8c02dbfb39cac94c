package plan

import (
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// NeedsHost reports whether p's plan depends on the machine: a service
// that wants GPUs (placement, CPU fallback, GPU memory) or a Spark service
// (sized to the machine's CPUs and memory). The plan of any other project
// is the same on every machine, so callers need not read NVML or ask the
// engine about its CPUs before planning it. A project whose compose files
// cannot be read is said to need it (planning reports the problem). The
// compose files are opts.Compose's (nil: read now), as the plan's.
func NeedsHost(p *spec.Project, opts Options) bool {
	composed, err := composeServices(opts.Context(), p, opts.Compose)
	return err != nil || needsHost(p, composed)
}

// needsHost is NeedsHost with the compose services loaded.
func needsHost(p *spec.Project, composed []compose.Service) bool {
	for _, s := range p.Services {
		if s.GPUs.Wants() || p.BaseProfile(s) == profiles.SparkRapids {
			return true
		}
	}
	return len(composeNeeds(composed)) > 0
}
