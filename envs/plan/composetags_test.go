package plan

import (
	"slices"
	"testing"
)

// TestComposeBuildTags: a compose build is built under devenv's tag and
// tagged with the names Compose gives it (image:, then build.tags, each
// once); a build with neither gets devenv's tag alone.
func TestComposeBuildTags(t *testing.T) {
	pl := planFixture(t, "tags")
	for svc, want := range map[string][]string{"app": {"example/app:1.0", "example/app:latest"}, "plain": nil} {
		s := pl.Service(svc)
		if s.Build == nil {
			t.Fatalf("%s: no build planned", svc)
		}
		if !slices.Equal(s.Build.Tags, want) {
			t.Errorf("%s: the build is tagged %q; want %q", svc, s.Build.Tags, want)
		}
	}
}
