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
// versions left unset are resolved for, and why (Options.Driver); Resolve
// applies the toolkit rule, ResolveLimited the limit's.
func Resolve(ctx context.Context, p *spec.Project, s *spec.Service, r Resolver, driver, rule string) (profiles.Resolved, []string, error) {
	return ResolveLimited(ctx, p, s, r, profiles.DriverLimit{Driver: driver, Rule: rule})
}

// ResolveLimited is Resolve for a driver limit that also says whether its
// GPUs are data-center ones (profiles.Catalog.ResolutionLimit).
func ResolveLimited(ctx context.Context, p *spec.Project, s *spec.Service, r Resolver, lim profiles.DriverLimit) (profiles.Resolved, []string, error) {
	req, err := mirroredRequest(ctx, s, s.Request())
	if err != nil {
		return profiles.Resolved{}, nil, serviceError(p, s, err)
	}
	req = lim.On(req)
	res, err := r.Resolve(req, p.Profiles)
	if err != nil {
		return profiles.Resolved{}, nil, serviceError(p, s, err)
	}
	return res, mirrorNotes(s.Name, req, res), nil
}
