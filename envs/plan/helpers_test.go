package plan

import (
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// small is the machine the compose tests plan on: 4 CPUs, 8 GiB, no GPU.
var small = Host{CPUs: 4, MemoryBytes: 8 << 30}

// composeProject is project demo whose devenv.yaml names dir's
// compose.yaml and nothing else.
func composeProject(t *testing.T, dir string) *spec.Project {
	t.Helper()
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte("name: demo\ncompose: [compose.yaml]\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// lockStandIn is p's lock as the stand-in registry (pinner) and
// downloads (fetcher) make it.
func lockStandIn(t *testing.T, p *spec.Project) *lock.File {
	t.Helper()
	lf, err := lock.Generate(t.Context(), p, nil, profiles.Builtin(), pinner{}, fetcher{}, lock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return lf
}

// planSmall plans p with lf on the small machine; the plan must succeed.
func planSmall(t *testing.T, p *spec.Project, lf *lock.File) *Plan {
	t.Helper()
	pl, err := Make(p, lf, small, opts(p))
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// planFixture plans testdata/name's compose.yaml as project demo, locked.
func planFixture(t *testing.T, name string) *Plan {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p := composeProject(t, dir)
	return planSmall(t, p, lockStandIn(t, p))
}
