package export

import (
	"strings"
	"testing"

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
