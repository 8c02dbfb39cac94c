package plan

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/sparkconf"
)

// mirroredLayer is the production conf the service mirrors (`mirror:`),
// scaled to the service's share of this machine, with secrets and
// prod-only keys already left out; nil when it mirrors nothing.
func mirroredLayer(ctx context.Context, p *spec.Project, s *spec.Service, hw sparkconf.Hardware, spark string) (*sparkconf.Layer, error) {
	if s.Mirror == "" {
		return nil, nil
	}
	prof, err := mirror.ImportContext(ctx, s.Mirror, mirror.Options{Format: s.MirrorFormat})
	if err != nil {
		return nil, fmt.Errorf("mirror %s: %w", s.Mirror, err)
	}
	h := MirrorHost(hw)
	h.Spark = spark
	local := prof.Localize(h)
	rel, err := filepath.Rel(p.Dir, s.Mirror)
	if err != nil {
		rel = s.Mirror
	}
	conf, rules := map[string]string{}, map[string]string{}
	for k, v := range local.Conf {
		if !sparkconf.SizedForHost(k) {
			conf[k], rules[k] = v, local.Sources[k]
		}
	}
	for k, v := range prof.Conf {
		if sparkconf.SizedForHost(k) {
			// devenv sizes it itself: the layer carries prod's own value
			// (so explain names it), never one devenv computed
			conf[k], rules[k] = v, mirror.SourceProdValue
		}
	}
	return &sparkconf.Layer{Source: filepath.ToSlash(rel), Conf: conf, Rules: rules, Prod: true}, nil
}

// MirrorHost is the service's hardware share as the mirror scaler sees it.
func MirrorHost(hw sparkconf.Hardware) mirror.Host {
	return mirror.Host{CPUs: hw.CPUs, MemoryMB: hw.MemoryBytes >> 20, GPUs: hw.GPUs, GPUMemoryMB: hw.GPUMemoryBytes >> 20}
}
