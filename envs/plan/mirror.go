package plan

import (
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/sparkconf"
)

// mirroredLayer is the production conf a service mirrors, scaled to this
// machine (devenv mirror); nil when the service mirrors nothing.
var mirroredLayer = func(p *spec.Project, s *spec.Service, hw sparkconf.Hardware, h Host) (*sparkconf.Layer, error) {
	return nil, nil
}
