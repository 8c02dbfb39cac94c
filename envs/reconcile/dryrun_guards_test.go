package reconcile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
)

// TestDryRunRefusesWhatUpRefuses: every guard Up runs before it changes
// anything refuses the dry run too, with Up's error, and the dry run
// still only reads the engine.
func TestDryRunRefusesWhatUpRefuses(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, f *enginetest.Fake, r *Runner, pl *plan.Plan)
		wantErr string
	}{
		{"a container of the name devenv did not make", func(t *testing.T, f *enginetest.Fake, _ *Runner, _ *plan.Plan) {
			f.AddImage("x:1", nil)
			if _, err := f.Create(t.Context(), engine.ContainerSpec{Name: "p-db", Image: "x:1"}); err != nil {
				t.Fatal(err)
			}
		}, "a container named p-db already exists and devenv did not create it"},
		{"the project's containers made in another directory", func(t *testing.T, f *enginetest.Fake, _ *Runner, pl *plan.Plan) {
			other := &Runner{Eng: f, Out: newRunner(t, f).Out, StateDir: filepath.Join(t.TempDir(), ".devenv")}
			if _, err := other.Up(t.Context(), pl, UpOptions{}); err != nil {
				t.Fatal(err)
			}
		}, "is in use by"},
		{"a missing env_file", func(_ *testing.T, _ *enginetest.Fake, _ *Runner, pl *plan.Plan) {
			pl.Services[0].MissingEnvFile, pl.Services[0].MissingEnvFileAt = "db.env", "devenv.yaml:7"
		}, `env_file "db.env" of service "db" does not exist`},
		{"an external network that is not there", func(_ *testing.T, _ *enginetest.Fake, _ *Runner, pl *plan.Plan) {
			pl.NetworkExternal = true
		}, "network p is declared as external in the compose file, but could not be found"},
		{"a network of the name devenv did not make", func(_ *testing.T, f *enginetest.Fake, _ *Runner, _ *plan.Plan) {
			f.AddNetwork("p", map[string]string{"owner": "someone"})
		}, `a network named "p" exists and devenv did not create it for project "p"`},
		{"a duplicate network devenv did not make", func(_ *testing.T, f *enginetest.Fake, _ *Runner, _ *plan.Plan) {
			f.AddNetwork("p", plan.Labels("p", ""))
			f.AddNetwork("p", nil)
		}, `there are several networks named "p"`},
		{"a symbolic link on the way to the generated files", func(t *testing.T, _ *enginetest.Fake, r *Runner, pl *plan.Plan) {
			if err := os.MkdirAll(r.StateDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(t.TempDir(), filepath.Join(r.StateDir, "generated")); err != nil {
				t.Fatal(err)
			}
			pl.Services[0].Generated = map[string][]byte{"spark-defaults.conf": []byte("spark.x 1\n")}
		}, "generated is a symbolic link"},
		{"a volume of another devenv project", func(t *testing.T, f *enginetest.Fake, _ *Runner, _ *plan.Plan) {
			if _, err := f.EnsureVolume(t.Context(), "p_cache", map[string]string{labels.Project: "other"}); err != nil {
				t.Fatal(err)
			}
		}, `a volume named "p_cache" belongs to devenv project "other"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := enginetest.New()
			r := newRunner(t, f)
			pl := testPlan()
			tt.setup(t, f, r, pl)
			from := len(f.Calls())
			_, dryErr := r.Up(t.Context(), pl, UpOptions{DryRun: true})
			for _, c := range f.Calls()[from:] {
				if !slices.Contains([]string{"ImageExists", "List", "Inspect"}, c.Method) {
					t.Errorf("the dry run called %s", c.Method)
				}
			}
			_, upErr := r.Up(t.Context(), pl, UpOptions{})
			if upErr == nil || !strings.Contains(upErr.Error(), tt.wantErr) {
				t.Fatalf("up: %v; want it refused saying %q", upErr, tt.wantErr)
			}
			if dryErr == nil || dryErr.Error() != upErr.Error() {
				t.Errorf("dry run: %v\nwant up's error: %v", dryErr, upErr)
			}
		})
	}
}
