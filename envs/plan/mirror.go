package plan

import (
	"fmt"
	"path/filepath"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/sparkconf"
)

// mirroredLayer is the production conf the service mirrors (`mirror:`),
// scaled to the service's share of this machine, with secrets and
// prod-only keys already left out; nil when it mirrors nothing.
func mirroredLayer(p *spec.Project, s *spec.Service, hw sparkconf.Hardware) (*sparkconf.Layer, error) {
	if s.Mirror == "" {
		return nil, nil
	}
	prof, err := mirror.Import(s.Mirror, mirror.Options{Format: s.MirrorFormat})
	if err != nil {
		return nil, fmt.Errorf("mirror %s: %w", s.Mirror, err)
	}
	local := prof.Localize(MirrorHost(hw))
	rel, err := filepath.Rel(p.Dir, s.Mirror)
	if err != nil {
		rel = s.Mirror
	}
	// prod's Maven jars are in the image (devenv lock pinned them)
	return &sparkconf.Layer{Source: filepath.ToSlash(rel), Conf: mirror.WithoutResolvedJars(local.Conf)}, nil
}

// MirrorHost is the service's hardware share as the mirror scaler sees it.
func MirrorHost(hw sparkconf.Hardware) mirror.Host {
	return mirror.Host{CPUs: hw.CPUs, MemoryMB: hw.MemoryBytes >> 20, GPUs: hw.GPUs, GPUMemoryMB: hw.GPUMemoryBytes >> 20}
}
