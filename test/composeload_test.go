package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestDevenvAloneLoadsComposeFiles runs the built devenv and devenv-core,
// copied alone into an empty directory, with nothing on PATH: they need no
// helper and load compose files themselves, so `config` (which loads them and needs no engine)
// reads the compose file and reports its warning at the file's line (and
// none for stop_grace_period, which Compose's stop applies).
func TestDevenvAloneLoadsComposeFiles(t *testing.T) {
	t.Parallel()
	dir := standin.Project(t, map[string]string{
		"devenv.yaml":  "name: alone\ncompose: [compose.yaml]\nservices:\n  shell:\n    profile: image\n    image: debian:bookworm\n    depends_on: [db]\n",
		"compose.yaml": "services:\n  db:\n    image: postgres:16\n    stop_grace_period: 3s\n    volumes: [\"/var/run/docker.sock:/var/run/docker.sock\"]\n",
	})
	// devenv's two programs, and nothing else, in a directory of their own
	installed := t.TempDir()
	for _, prog := range []string{"devenv", "devenv-core"} {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(standin.Devenv(t)), prog))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(installed, prog), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.CommandContext(t.Context(), filepath.Join(installed, "devenv"), "config")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("devenv config: %v\n%s", err, out)
	}
	for _, want := range []string{"depends:  db", `compose.yaml:5:5: service "db": volume /var/run/docker.sock:/var/run/docker.sock binds the Docker socket`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "stop_grace_period") {
		t.Errorf("config warns about stop_grace_period, which devenv stop applies as Compose does:\n%s", out)
	}
}
