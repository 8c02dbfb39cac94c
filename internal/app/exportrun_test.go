package app

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExportRunLine: the line `export compose -o` prints sets the Jupyter
// token the file asks for (${JUPYTER_TOKEN:?...}) from devenv's copy, adds
// the mirrors override when there is one, and quotes what the shell would
// split; when the file holds services of compose profiles (enabled by
// --profile or COMPOSE_PROFILES when it was exported) it sets
// COMPOSE_PROFILES to each of them once, so docker compose starts the
// services devenv runs (without it, it skips them).
func TestExportRunLine(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(wd, ".devenv")
	token := []byte("    environment:\n      JUPYTER_TOKEN: ${JUPYTER_TOKEN:?set JUPYTER_TOKEN}\n")
	for _, tc := range []struct {
		name, project, file, override string
		data                          []byte
		profiles                      []string
		want                          string
	}{
		{"plain", "demo", "compose.devenv.yaml", "", []byte("services: {}\n"), nil,
			"docker compose -p demo -f compose.devenv.yaml up -d"},
		{"token", "demo", "compose.devenv.yaml", "", token, nil,
			"JUPYTER_TOKEN=$(cat .devenv/jupyter-token) docker compose -p demo -f compose.devenv.yaml up -d"},
		{"mirrors", "demo", "out/c.yaml", filepath.Join(state, "compose.mirrors.yaml"), token, nil,
			"JUPYTER_TOKEN=$(cat .devenv/jupyter-token) docker compose -p demo -f out/c.yaml -f .devenv/compose.mirrors.yaml up -d"},
		{"spaces", "demo", "my file.yaml", "", nil, nil,
			"docker compose -p demo -f 'my file.yaml' up -d"},
		{"profiles", "demo", "compose.devenv.yaml", "", token, []string{"debug", "gpu"},
			"JUPYTER_TOKEN=$(cat .devenv/jupyter-token) COMPOSE_PROFILES=debug,gpu docker compose -p demo -f compose.devenv.yaml up -d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := runLine(tc.project, tc.file, tc.override, state, tc.data, tc.profiles); got != tc.want {
				t.Errorf("runLine = %q\nwant      %q", got, tc.want)
			}
		})
	}
}
