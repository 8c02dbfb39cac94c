package loader

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/compose"
	"gopkg.in/yaml.v3"
)

// TestConfigSurvivesJSON: compose-go's value of every service of every
// compose file in the repository's fixtures reaches devenv as the loader
// had it, through compose.Config's JSON. What compose-go's own JSON
// leaves out (nested x- extensions, secrets' content) is the only loss.
func TestConfigSurvivesJSON(t *testing.T) {
	// devenv's exports read the Jupyter token from the environment
	t.Setenv("JUPYTER_TOKEN", "test-token")
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	for _, file := range repoComposeFiles(t) {
		rel, _ := filepath.Rel(root, file)
		t.Run(rel, func(t *testing.T) {
			dir := filepath.Dir(file)
			proj, err := loadProject(t.Context(), []string{file}, dir, "trip", []string{"*"})
			if err != nil {
				t.Skipf("compose refuses it (a deliberately invalid fixture): %v", err)
			}
			if proj, err = proj.WithServicesEnvironmentResolved(false); err != nil {
				t.Skipf("compose refuses its env_file: %v", err)
			}
			for _, name := range sortedNames(proj.Services) {
				want := original(proj, proj.Services[name])
				b, err := json.Marshal(compose.Service{Name: name, Config: want})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				var got compose.Service
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatalf("%s: %v\n%s", name, err, b)
				}
				for _, d := range configDiff(t, got.Config, want) {
					t.Errorf("%s: after JSON %s", name, d)
				}
			}
		})
	}
}

// repoComposeFiles are the compose files among the repository's fixtures
// (testdata and test/): YAML files with a top-level services: that are not
// devenv.yaml files (those have version: or compose: at the top).
func repoComposeFiles(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		if !strings.Contains("/"+filepath.ToSlash(rel), "/testdata/") && !strings.HasPrefix(filepath.ToSlash(rel), "test/") {
			return nil
		}
		if isComposeFile(p) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// isComposeFile: a YAML file whose services: is a mapping and none of whose
// services has devenv's profile: key (devenv.yaml fixtures do).
func isComposeFile(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	var doc struct {
		Version  any                       `yaml:"version"`
		Compose  any                       `yaml:"compose"`
		Services map[string]map[string]any `yaml:"services"`
	}
	if yaml.Unmarshal(b, &doc) != nil || doc.Compose != nil || len(doc.Services) == 0 {
		return false
	}
	for _, s := range doc.Services {
		if _, devenv := s["profile"]; devenv {
			return false
		}
	}
	return true
}

// configDiff is what differs in what compose-go writes of a value (its
// JSON: what Compose hashes and prints) and in what that JSON leaves out
// (name, the service's extensions).
func configDiff(t *testing.T, got, want *compose.Config) []string {
	t.Helper()
	if got == nil {
		return []string{"no config"}
	}
	var out []string
	for _, f := range []struct {
		what      string
		got, want any
	}{
		{"service", got.Service, want.Service}, {"networks", got.Networks, want.Networks}, {"volumes", got.Volumes, want.Volumes},
		{"configs", got.Configs, want.Configs}, {"secrets", got.Secrets, want.Secrets},
	} {
		g, _ := json.Marshal(f.got)
		w, _ := json.Marshal(f.want)
		if string(g) != string(w) {
			out = append(out, fmt.Sprintf("%s:\n got %s\nwant %s", f.what, g, w))
		}
	}
	if got.Service.Name != want.Service.Name {
		out = append(out, fmt.Sprintf("name %q, want %q", got.Service.Name, want.Service.Name))
	}
	if !reflect.DeepEqual(got.Service.Extensions, want.Service.Extensions) {
		out = append(out, fmt.Sprintf("extensions %v, want %v", got.Service.Extensions, want.Service.Extensions))
	}
	if (got.Service.Build == nil) != (want.Service.Build == nil) ||
		(got.Service.Build != nil && !reflect.DeepEqual(got.Service.Build.SSH, want.Service.Build.SSH)) {
		out = append(out, "build.ssh differs")
	}
	return out
}
