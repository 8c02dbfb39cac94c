package app

import (
	"context"

	"github.com/devenv-dev/devenv/profiles"
)

// resolutionDriver is the NVIDIA driver that versions devenv.yaml leaves
// unset are resolved for, and the rule that chose it
// (profiles.Catalog.ResolutionDriver), from this machine's NVML reading.
func (p *Project) resolutionDriver(ctx context.Context) profiles.DriverLimit {
	c, ok := p.catalog().(*profiles.Catalog)
	if !ok {
		c = profiles.Builtin()
	}
	h := p.facts(ctx).Host
	return c.ResolutionLimit(machineDriver(h), h.GPUModels())
}
