package export

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"gopkg.in/yaml.v3"
)

func TestComposeGolden(t *testing.T) {
	pl, lf := locked(t)
	got, err := Compose(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "compose.locked.golden.yaml", portable(got))

	got, err = Compose(unlocked(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "compose.unlocked.golden.yaml", portable(got))
}

// TestComposeStartsWithoutGPU: a gpu: optional service reserves no GPU in
// the export (so compose starts it on a machine without one) while a
// required one does, and no container is labelled as devenv's.
func TestComposeStartsWithoutGPU(t *testing.T) {
	pl, lf := locked(t)
	data, err := Compose(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Services map[string]map[string]any `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.Services["notebook"]["deploy"]; ok {
		t.Errorf("notebook (gpu: optional) reserves a GPU: compose fails on a machine without one:\n%s", data)
	}
	if _, ok := doc.Services["spark"]["deploy"]; !ok {
		t.Errorf("spark (gpu: required) lost its GPU reservation")
	}
	if strings.Contains(string(data), "dev.devenv.") {
		t.Errorf("the export labels containers as devenv's: devenv ps would list them:\n%s", data)
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
	data, err := Compose(pl, lf)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Services map[string]composeService `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	pg := doc.Services["postgres"]
	if pg.Image != "postgres:16.9-bookworm" || pg.PullPolicy != "never" {
		t.Errorf("postgres image %q pull_policy %q; want the tag with pull_policy never", pg.Image, pg.PullPolicy)
	}
	if !strings.Contains(string(data), "exists on this machine only (devenv.lock pins it by image ID "+id) {
		t.Errorf("no comment says postgres's image is local:\n%s", data)
	}
}
