package loader

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/devenv-dev/devenv/compose/composetest"

	"github.com/devenv-dev/devenv/compose"
)

// TestConfigSurvivesJSON: compose-go's value of every service of every
// compose file in the repository's fixtures reaches devenv as the loader
// had it, through compose.Config's JSON. What compose-go's own JSON
// leaves out (nested x- extensions, secrets' content) is the only loss.
func TestConfigSurvivesJSON(t *testing.T) {
	// devenv's exports read the Jupyter token from the environment
	t.Setenv("JUPYTER_TOKEN", "test-token")
	root, files := composetest.Repo(t)
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		t.Run(rel, func(t *testing.T) {
			dir := filepath.Dir(file)
			proj, err := cliProject(t.Context(), []string{file}, dir, "trip", []string{"*"}, true)
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
