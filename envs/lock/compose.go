package lock

import (
	"context"
	"fmt"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/sources"
)

// ComposeProfile marks a locked compose service.
const ComposeProfile = "compose"

// lockCompose pins the image of every compose service that runs an image
// (services that build their own are pinned by what they build from, which
// compose files do not say): the project's data services are as
// reproducible as devenv's own.
func lockCompose(ctx context.Context, p *spec.Project, prev *File, pin Pinner, m sources.Mirrors, opts Options) ([]Service, error) {
	if len(p.Compose) == 0 {
		return nil, nil
	}
	svcs, err := compose.Load(ctx, p.Compose, p.Dir, p.Name, nil)
	if err != nil {
		return nil, err
	}
	var out []Service
	for _, cs := range svcs {
		if cs.Build != nil || cs.Image == "" {
			continue
		}
		img, err := pinImage(ctx, cs.Image, previous(prev, cs.Name, opts), pin, m)
		if err != nil {
			return nil, fmt.Errorf("compose service %q: %w", cs.Name, err)
		}
		in := Inputs{Image: cs.Image}
		out = append(out, Service{Name: cs.Name, Profile: ComposeProfile, InputHash: in.hash(), Inputs: &in, Base: img})
	}
	return out, nil
}
