package spec

import (
	"testing"

	"github.com/devenv-dev/devenv/profiles"
)

func TestBaseProfile(t *testing.T) {
	p := &Project{Profiles: map[string]*profiles.Custom{"team-spark": {Extends: profiles.SparkRapids}}}
	tests := []struct {
		profile string
		want    string
	}{
		{profiles.SparkRapids, profiles.SparkRapids},
		{profiles.Triton, profiles.Triton},
		{"team-spark", profiles.SparkRapids},
		{"nowhere", ""},
	}
	for _, tt := range tests {
		if got := p.BaseProfile(&Service{Profile: tt.profile}); got != tt.want {
			t.Errorf("BaseProfile(%q) = %q, want %q", tt.profile, got, tt.want)
		}
	}
	if got := p.BaseProfile(nil); got != "" {
		t.Errorf("BaseProfile(nil) = %q", got)
	}
}
