package lock

import (
	"context"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// Resolve is the resolution Generate starts from for one service, without
// a previous lock: devenv.yaml's request with a mirrored prod's versions
// filling what it leaves open. Its errors carry devenv.yaml's file, line
// and field, as the lock's do; the notes say what the mirror filled in.
// config and the plans made before any lock use it, so they show what
// `devenv lock` would pick. driver and rule are the NVIDIA driver that
// versions left unset are resolved for, and why (Options.Driver).
func Resolve(ctx context.Context, p *spec.Project, s *spec.Service, r Resolver, driver, rule string) (profiles.Resolved, []string, error) {
	req, err := mirroredRequest(ctx, s, s.Request())
	if err != nil {
		return profiles.Resolved{}, nil, serviceError(p, s, err)
	}
	req.Driver, req.DriverRule = driver, rule
	res, err := r.Resolve(req, p.Profiles)
	if err != nil {
		return profiles.Resolved{}, nil, serviceError(p, s, err)
	}
	return res, mirrorNotes(s.Name, req, res), nil
}
