package export

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	composesdk "github.com/docker/compose/v5/pkg/compose"
)

// TestComposeExportHashesAreDevenvs loads the export as `docker compose -f
// FILE config --hash '*'` does (compose-go with the shell's environment and
// .env, env_files merged into environment) and compares each service's
// Compose config hash with the one of the project devenv runs
// (project.FromPlan): the same for every service, so `docker compose up`
// with the file and devenv up make the same containers. Its depends_on
// (outside the hash) and generated files (config content: outside the
// hash too) are compared as well.
func TestComposeExportHashesAreDevenvs(t *testing.T) {
	tests := []struct {
		name string
		plan func(t *testing.T) (*plan.Plan, *lock.File)
	}{
		{"locked", locked},
		{"unlocked", func(t *testing.T) (*plan.Plan, *lock.File) { return unlocked(t), nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, lf := tt.plan(t)
			spark := pl.Service("spark")
			if len(spark.Files) != 1 {
				t.Fatalf("the spark service gets files %+v, want its spark-defaults.conf", spark.Files)
			}
			// a $ in a generated file and in devenv.yaml's env: (PRICE: $5) reach the container as written
			spark.Files[0].Data = append(spark.Files[0].Data, "spark.driver.extraJavaOptions -Dprice=$5 -Dhome=${HOME}\n"...)
			data := composeOf(t, pl, lf)
			if strings.Contains(string(data), "test-token") {
				t.Fatal("the Jupyter token was written into the export")
			}
			noCanary(t, "the compose export", data)
			file := writeExport(t, pl.Project0.Dir, data)
			if _, err := loadAsCompose(t, file); err == nil || !strings.Contains(err.Error(), "JUPYTER_TOKEN") {
				t.Fatalf("without JUPYTER_TOKEN set the export must refuse to load, got %v", err)
			}
			t.Setenv("JUPYTER_TOKEN", "test-token") // what the user exports from .devenv/jupyter-token
			got, err := loadAsCompose(t, file)
			if err != nil {
				t.Fatalf("docker compose would not load the export: %v\n%s", err, data)
			}
			want := runProject(t, pl)
			sameProject(t, got, want)
			for _, f := range spark.Files {
				ref := got.Services["spark"].Configs[0]
				if c := got.Configs[ref.Source]; ref.Target != f.Path || c.Content != string(f.Data) {
					t.Errorf("spark: config %s at %s holds\n%s\nwant %s holding\n%s", ref.Source, ref.Target, c.Content, f.Path, f.Data)
				}
			}
			for name, n := range got.Networks {
				if n.External {
					t.Errorf("network %s is external: docker compose up with the file alone would not make it", name)
				}
			}
			for name, v := range got.Volumes {
				if v.External {
					t.Errorf("volume %s is external: docker compose up with the file alone would not make it", name)
				}
			}
		})
	}
}

func writeExport(t *testing.T, dir string, data []byte) string {
	t.Helper()
	file := filepath.Join(dir, "roundtrip.compose.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(file) })
	return file
}

// loadAsCompose loads file as the Compose CLI's `config --hash` does: the
// file's directory as the project directory, the shell's environment and
// .env, then each service's env_files merged into its environment.
func loadAsCompose(t *testing.T, file string) (*types.Project, error) {
	t.Helper()
	opts, err := cli.NewProjectOptions([]string{file}, cli.WithWorkingDirectory(filepath.Dir(file)), cli.WithOsEnv,
		cli.WithEnvFiles(), cli.WithDotEnv, cli.WithConfigFileEnv, cli.WithDefaultProfiles(), cli.WithoutEnvironmentResolution)
	if err != nil {
		return nil, err
	}
	proj, err := opts.LoadProject(t.Context())
	if err != nil {
		return nil, err
	}
	return proj.WithServicesEnvironmentResolved(true)
}

// runProject is the project devenv runs for pl (its network and volumes
// made by devenv, so external) as Compose hashes it: Compose's CLI merges
// each service's env_files into its environment and then leaves them out
// of the service (WithServicesEnvironmentResolved(true)) before it hashes
// or creates a container. FromPlan's environment already holds the merged
// values, but it keeps a compose service's env_file paths, which the SDK
// would hash: see withoutEnvFiles.
func runProject(t *testing.T, pl *plan.Plan) *types.Project {
	t.Helper()
	proj, err := project.FromPlan(pl, project.Options{WorkingDir: pl.Project0.Dir, External: true})
	if err != nil {
		t.Fatal(err)
	}
	return withoutEnvFiles(proj)
}

// withoutEnvFiles is proj with env_files left out, as Compose's CLI leaves
// them out once merged.
func withoutEnvFiles(proj *types.Project) *types.Project {
	for name, svc := range proj.Services {
		svc.EnvFiles = nil
		proj.Services[name] = svc
	}
	return proj
}

// sameProject compares, service by service, the Compose config hash and
// the dependencies of the loaded export with devenv's project.
func sameProject(t *testing.T, got, want *types.Project) {
	t.Helper()
	if got.Name != want.Name {
		t.Errorf("the export names project %q, devenv runs %q", got.Name, want.Name)
	}
	if len(got.Services) != len(want.Services) {
		t.Errorf("the export has services %v, devenv runs %v", got.ServiceNames(), want.ServiceNames())
	}
	for name, w := range want.Services {
		g, ok := got.Services[name]
		if !ok {
			t.Errorf("service %s is missing from the export", name)
			continue
		}
		gh, err := composesdk.ServiceHash(g)
		if err != nil {
			t.Fatal(err)
		}
		wh, err := composesdk.ServiceHash(w)
		if err != nil {
			t.Fatal(err)
		}
		if gh != wh {
			t.Errorf("%s: docker compose's config hash of the export %s, devenv's %s; keys that differ: %s", name, gh, wh, keyDiff(t, g, w))
		}
		if !reflect.DeepEqual(g.DependsOn, w.DependsOn) {
			t.Errorf("%s depends_on = %+v, devenv's %+v", name, g.DependsOn, w.DependsOn)
		}
	}
}

// keyDiff names the service keys whose JSON (what the hash is made of) differs.
func keyDiff(t *testing.T, a, b types.ServiceConfig) string {
	t.Helper()
	am, bm := jsonKeys(t, a), jsonKeys(t, b)
	for k := range bm {
		if _, ok := am[k]; !ok {
			am[k] = nil
		}
	}
	var out []string
	for k, v := range am {
		if string(v) != string(bm[k]) {
			out = append(out, fmt.Sprintf("%s: %s vs %s", k, v, bm[k]))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func jsonKeys(t *testing.T, s types.ServiceConfig) map[string]json.RawMessage {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
