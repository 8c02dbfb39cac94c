package plan

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// TestComposeBuildTags: a compose build is built under devenv's tag and
// tagged with the names Compose gives it (image:, then build.tags, each
// once); a build with neither gets devenv's tag alone.
func TestComposeBuildTags(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "tags"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte("name: demo\ncompose: [compose.yaml]\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	lf, err := lock.Generate(t.Context(), p, nil, profiles.Builtin(), pinner{}, fetcher{}, lock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := Make(p, lf, Host{CPUs: 4, MemoryBytes: 8 << 30}, opts(p))
	if err != nil {
		t.Fatal(err)
	}
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
