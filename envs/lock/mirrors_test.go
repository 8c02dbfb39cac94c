package lock

import (
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/sources"
)

func mirrors(p *spec.Project) sources.Mirrors {
	return sources.Mirrors{Registries: p.Mirrors.Registries, Maven: p.Mirrors.Maven, Apache: p.Mirrors.Apache}
}
