package export

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"go.yaml.in/yaml/v3"
)

func TestComposeGolden(t *testing.T) {
	pl, lf := locked(t)
	got := composeOf(t, pl, lf)
	golden(t, "compose.locked.golden.yaml", portable(got))

	got = composeOf(t, unlocked(t), nil)
	golden(t, "compose.unlocked.golden.yaml", portable(got))
}

// TestComposeStartsWithoutGPU: a gpu: optional service reserves no GPU in
// the export (so compose starts it on a machine without one) while a
// required one does, and every container is labelled as devenv's (the
// export is the project devenv runs: devenv ps lists what compose started).
func TestComposeStartsWithoutGPU(t *testing.T) {
	pl, lf := locked(t)
	data := composeOf(t, pl, lf)
	var doc struct {
		Services map[string]struct {
			Deploy map[string]any    `yaml:"deploy"`
			Labels map[string]string `yaml:"labels"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Services["notebook"].Deploy != nil {
		t.Errorf("notebook (gpu: optional) reserves a GPU: compose fails on a machine without one:\n%s", data)
	}
	if doc.Services["spark"].Deploy == nil {
		t.Errorf("spark (gpu: required) lost its GPU reservation")
	}
	for name, svc := range doc.Services {
		if svc.Labels["dev.devenv.project"] != "demo" || svc.Labels["dev.devenv.service"] != name {
			t.Errorf("%s is labelled %v, not as service %s of devenv's project demo", name, svc.Labels, name)
		}
	}
}

// TestComposeLocalImage: a compose image devenv.lock pins by local image
// ID is written by its tag with pull_policy: never (compose must not try a
// registry that does not have it) and a comment saying why.
func TestComposeLocalImage(t *testing.T) {
	p := loadProject(t)
	lf := fakeLock(t, p)
	id := "sha256:" + strings.Repeat("ef", 32)
	lf.Services = append(lf.Services, lock.Service{Name: "postgres", Profile: lock.ComposeProfile,
		Base: &lock.Image{Ref: "postgres:16.9-bookworm", Digest: id, Local: true}})
	pl := makePlan(t, p, lf)
	if got := pl.Service("postgres").Image; got != id {
		t.Fatalf("planned postgres image = %q, want the local ID", got)
	}
	data := composeOf(t, pl, lf)
	var doc struct {
		Services map[string]struct{ Image string } `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if pg := doc.Services["postgres"]; pg.Image != id {
		t.Errorf("postgres image %q; want the locked image ID %s, as devenv runs it", pg.Image, id)
	}
	if !strings.Contains(string(data), "the image is postgres:16.9-bookworm by its ID "+id) {
		t.Errorf("no comment says postgres's image is local:\n%s", data)
	}
}
