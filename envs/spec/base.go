package spec

// BaseProfile is the built-in profile s's profile is or extends (a custom
// profile's `extends:`), or "" when the profile is unknown.
func (p *Project) BaseProfile(s *Service) string {
	if s == nil {
		return ""
	}
	if isBuiltin(s.Profile) {
		return s.Profile
	}
	if c := p.Profiles[s.Profile]; c != nil {
		return c.Extends
	}
	return ""
}
