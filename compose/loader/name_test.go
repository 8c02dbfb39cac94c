package loader

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDeclaredName: the compose files' top-level name: as Compose takes it
// (compose-go's loader.projectName): the last file that states one wins,
// ${VAR} is read from the environment then .env, and the name is
// normalized; a file without one, or one that normalizes to nothing,
// states none.
func TestDeclaredName(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "name"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		files  []string
		env    map[string]string
		want   string
		wantAt string
	}{
		{"one file", []string{"compose.yaml"}, nil, "blueprint_rag", "compose.yaml:1"},
		{"the override's wins", []string{"compose.yaml", "override.yaml"}, nil, "rag-local", "override.yaml:2"},
		{"a later file without one", []string{"compose.yaml", "unnamed.yaml"}, nil, "blueprint_rag", "compose.yaml:1"},
		{"none", []string{"unnamed.yaml"}, nil, "", ""},
		{"from .env and a default", []string{"vars.yaml"}, nil, "fallback-dev", "vars.yaml:4"},
		{"the environment over .env", []string{"vars.yaml"}, map[string]string{"STACK": "rag", "TIER": "prod"}, "rag-prod", "vars.yaml:4"},
		{"normalized to nothing", []string{"empty.yaml"}, nil, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("STACK", "")
			t.Setenv("TIER", "")
			unsetEnv(t, "STACK", "TIER")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			var files []string
			for _, f := range tc.files {
				files = append(files, filepath.Join(dir, f))
			}
			d, err := DeclaredName(files, dir)
			if err != nil {
				t.Fatal(err)
			}
			if d.Name != tc.want {
				t.Errorf("name %q, want %q", d.Name, tc.want)
			}
			if tc.wantAt != "" && d.At(dir) != tc.wantAt {
				t.Errorf("stated at %s, want %s", d.At(dir), tc.wantAt)
			}
		})
	}
}

// unsetEnv unsets keys for the test (t.Setenv first, so they come back).
func unsetEnv(t *testing.T, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := os.Unsetenv(k); err != nil {
			t.Fatal(err)
		}
	}
}
