package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestComposeHelperBesideDevenvOrOnPath runs the built devenv where a user
// may have put it: devenv reads compose files with devenv-compose, found
// beside the executable (a symbolic link to devenv resolved), else on PATH;
// without it a compose project fails with exit 1 saying where devenv looked
// and how to build both, and a project without compose files never needs
// it. `config` loads the compose files and needs no engine.
func TestComposeHelperBesideDevenvOrOnPath(t *testing.T) {
	t.Parallel()
	built := standin.Devenv(t)
	helperDir := filepath.Dir(built)
	withCompose := standin.Project(t, map[string]string{
		"devenv.yaml":  "name: helper\ncompose: [compose.yaml]\nservices:\n  shell:\n    profile: image\n    image: debian:bookworm\n    depends_on: [db]\n",
		"compose.yaml": "services:\n  db:\n    image: postgres:16\n    stop_signal: SIGINT\n",
	})
	without := standin.Project(t, map[string]string{"devenv.yaml": "name: plain\nservices:\n  shell:\n    profile: image\n    image: debian:bookworm\n"})

	alone := filepath.Join(t.TempDir(), "devenv")
	data, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "devenv")
	if err := os.Symlink(built, link); err != nil {
		t.Fatal(err)
	}
	emptyPath := t.TempDir()
	loaded := `service "db": stop_signal is ignored` // the compose file was read

	for _, c := range []struct {
		name, exe, path, dir string
		code                 int
		want                 []string
	}{
		{"beside devenv", built, emptyPath, withCompose, 0, []string{loaded}},
		{"beside the file a link names", link, emptyPath, withCompose, 0, []string{loaded}},
		{"on PATH", alone, emptyPath + string(os.PathListSeparator) + helperDir, withCompose, 0, []string{loaded}},
		{"missing", alone, emptyPath, withCompose, 1, []string{"devenv-compose", filepath.Join(filepath.Dir(alone), "devenv-compose"), "$PATH", "make build", "go install github.com/devenv-dev/devenv/cmd/...@latest"}},
		{"not needed without compose files", alone, emptyPath, without, 0, []string{"shell"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), c.exe, "config")
			cmd.Dir = c.dir
			cmd.Env = append(os.Environ(), "PATH="+c.path)
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok { //nolint:errorlint // exec's own type, never wrapped
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code {
				t.Errorf("devenv config exited %d, want %d:\n%s", code, c.code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
