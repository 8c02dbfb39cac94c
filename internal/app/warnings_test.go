package app

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
)

// TestComposeWarningsOncePerChange: warnings about compose keys print the
// first time and after they change, not on every run; other warnings
// print every time.
func TestComposeWarningsOncePerChange(t *testing.T) {
	p := &Project{Spec: &spec.Project{Dir: t.TempDir()}}
	restart := `compose.yaml:5:5: service "db": restart is ignored`
	capAdd := `compose.yaml:6:5: service "db": cap_add works differently from Compose`
	cpu := "spark runs on the CPU: no GPU"
	runs := []struct {
		name    string
		compose []string
		want    []string
	}{
		{"first run", []string{restart}, []string{cpu, restart}},
		{"unchanged", []string{restart}, []string{cpu}},
		{"unchanged again", []string{restart}, []string{cpu}},
		{"a key added", []string{restart, capAdd}, []string{cpu, restart, capAdd}},
		{"same set, other order", []string{capAdd, restart}, []string{cpu}},
		{"all fixed", nil, []string{cpu}},
		{"back again", []string{restart}, []string{cpu, restart}},
	}
	for _, r := range runs {
		pl := &plan.Plan{Warnings: append([]string{cpu}, r.compose...), ComposeWarnings: r.compose}
		got := p.warningsToPrint(pl)
		if strings.Join(got, "|") != strings.Join(r.want, "|") {
			t.Errorf("%s: printed %q, want %q", r.name, got, r.want)
		}
	}
}
