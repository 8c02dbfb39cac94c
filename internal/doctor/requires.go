package doctor

import "github.com/devenv-dev/devenv/profiles"

// lockedRequires is what the service's locked image needs from the host.
func lockedRequires(s service) profiles.Requirements {
	if s.Lock == nil {
		return profiles.Requirements{}
	}
	return s.Lock.Requires
}
