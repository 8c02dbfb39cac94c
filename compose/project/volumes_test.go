package project

import (
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
)

// TestComposeVolumesUpRendersThemExternal: as up renders the project
// (External: devenv makes the project's volumes before Compose runs it),
// each compose volume is the one Compose names (its own name: or
// <project>_<key>) and external, devenv having made it or the file saying
// so; no volume is there twice under another key.
func TestComposeVolumesUpRendersThemExternal(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "rules", "volumes"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte("name: demo\ncompose: [compose.yaml]\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := plan.Make(p, fakeLock(t, p), cpuHost, plan.Options{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	proj, err := FromPlan(pl, Options{WorkingDir: dir, External: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"data": "demo_data", "named": "my-data", "ext": "ext", "extnamed": "shared-cache"}
	if len(proj.Volumes) != len(want) {
		t.Errorf("volumes %v; want the keys of %v", proj.Volumes, want)
	}
	for key, name := range want {
		v, ok := proj.Volumes[key]
		if !ok || v.Name != name || !bool(v.External) {
			t.Errorf("volume %s is %+v; want %s, external", key, v, name)
		}
	}
}
