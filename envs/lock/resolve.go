package lock

import (
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// Resolve is the resolution Generate starts from for one service, without
// a previous lock: devenv.yaml's request with a mirrored prod's versions
// filling what it leaves open. Its errors carry devenv.yaml's file, line
// and field, as the lock's do; the notes say what the mirror filled in.
// config and the plans made before any lock use it, so they show what
// `devenv lock` would pick.
func Resolve(p *spec.Project, s *spec.Service, r Resolver) (profiles.Resolved, []string, error) {
	req, notes, err := mirroredRequest(s, s.Request(), r, p.Profiles)
	if err != nil {
		return profiles.Resolved{}, nil, serviceError(p, s, err)
	}
	res, err := r.Resolve(req, p.Profiles)
	if err != nil {
		return profiles.Resolved{}, nil, serviceError(p, s, err)
	}
	return res, notes, nil
}
