package lock

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestBuildBasesOutsideTheProject: a compose build whose context, or
// Dockerfile, lies outside devenv.yaml's directory (written so: ../../src)
// is locked by the images it builds FROM, as Compose builds it from there;
// the lock refused it ("devenv reads only files inside it").
func TestBuildBasesOutsideTheProject(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "outside", "repo"))
	if err != nil {
		t.Fatal(err)
	}
	p := reparse(t, dir)
	pin := &fakePinner{}
	f, err := lockBuildProject(t, p, nil, pin, nil)
	if err != nil {
		t.Fatal(err)
	}
	for svc, want := range map[string]string{"app": "busybox:1.36", "tool": "python:3.12-slim"} {
		s := f.Service(svc)
		if s == nil || len(s.BuildBases) != 1 || s.BuildBases[0].Ref != want {
			t.Errorf("service %s is locked as %+v; want its build FROM %s", svc, s, want)
		}
		if !slices.Contains(pin.calls, want) {
			t.Errorf("registry asked for %v; want %s among them", pin.calls, want)
		}
	}
}
