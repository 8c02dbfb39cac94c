package export

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// TestComposeExportKeepsWhatComposeReads: `devenv export compose` of
// testdata/fidelity, loaded as `docker compose config` loads a file, gives
// each key below the value Compose reads from the compose file itself: an
// env_file with required: false stays optional (it came out required, so
// Compose refused the export where the file is missing), and block scalars
// (|, |+, |-, >, >-, an indentation indicator, a quoted leading newline)
// keep their exact value, leading and trailing newlines included.
func TestComposeExportKeepsWhatComposeReads(t *testing.T) {
	p := fixture(t, "fidelity")
	pl, err := PlanUnlocked(p, fileHost, testOptions(p))
	if err != nil {
		t.Fatal(err)
	}
	data := composeOf(t, pl, nil)
	golden(t, "fidelity.golden.yaml", portableIn(data, p.Dir))
	want := loadUnresolved(t, filepath.Join(p.Dir, "compose.yaml")).Services["app"]
	got := loadUnresolved(t, writeExport(t, p.Dir, data)).Services["app"]
	var files []types.EnvFile
	for _, f := range got.EnvFiles {
		files = append(files, types.EnvFile{Path: f.Path, Required: f.Required})
	}
	wantFiles := []types.EnvFile{
		{Path: filepath.Join(p.Dir, "app.env"), Required: true},
		{Path: filepath.Join(p.Dir, "local.env"), Required: false},
		{Path: filepath.Join(p.Dir, "missing.env"), Required: false},
	}
	if !reflect.DeepEqual(files, wantFiles) {
		t.Errorf("env_file = %+v\nwant %+v", files, wantFiles)
	}
	for _, tc := range []struct {
		key       string
		got, want any
	}{
		{"command", got.Command, want.Command},
		{"entrypoint", got.Entrypoint, want.Entrypoint},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s = %q, want %q", tc.key, tc.got, tc.want)
		}
	}
	for _, k := range []string{"LITERAL", "KEEP", "STRIP", "FOLDED", "INDENTED", "LEADING", "RAW"} {
		g, w := got.Environment[k], want.Environment[k]
		if g == nil || w == nil || *g != *w {
			t.Errorf("environment %s = %q, want %q", k, deref(g), deref(w))
		}
	}
	// what Compose runs: the env_files merged, the missing optional one skipped
	resolved, err := loadAsCompose(t, writeExport(t, p.Dir, data))
	if err != nil {
		t.Fatalf("Compose refuses the export: %v", err)
	}
	env := resolved.Services["app"].Environment
	if deref(env["FROM_APP"]) != "1" || deref(env["FROM_LOCAL"]) != "2" {
		t.Errorf("environment from the env_files = %q, %q; want 1, 2", deref(env["FROM_APP"]), deref(env["FROM_LOCAL"]))
	}
}

// loadUnresolved loads file as Compose's CLI does, env_files kept as
// written (not yet merged into the environment).
func loadUnresolved(t *testing.T, file string) *types.Project {
	t.Helper()
	opts, err := cli.NewProjectOptions([]string{file}, cli.WithWorkingDirectory(filepath.Dir(file)), cli.WithOsEnv,
		cli.WithEnvFiles(), cli.WithDotEnv, cli.WithConfigFileEnv, cli.WithDefaultProfiles(), cli.WithoutEnvironmentResolution)
	if err != nil {
		t.Fatal(err)
	}
	proj, err := opts.LoadProject(t.Context())
	if err != nil {
		t.Fatalf("loading %s as Compose does: %v", file, err)
	}
	return proj
}

func deref(s *string) string {
	if s == nil {
		return "<unset>"
	}
	return *s
}

// portableIn hides dir, the fixture's location, from a golden.
func portableIn(b []byte, dir string) []byte {
	return ownHash.ReplaceAll([]byte(strings.ReplaceAll(string(b), dir, "$PROJECT")), []byte("${1}$$HASH"))
}
