package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
)

// TestConfigShowsComposeServices: config shows the compose files'
// services next to devenv's, as devenv runs them: the image (devenv's tag
// for a build:), ports on devenv's host address, mounts, networks and the
// labels devenv adds, in the text and in --json (a port the file gives no
// address says that Compose would publish it on every one); ServiceNames lists
// devenv's then compose's.
func TestConfigShowsComposeServices(t *testing.T) {
	dir := project(t, `name: demo
compose: [compose.yaml]
services:
  shell:
    profile: image
    image: nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04
    command: [sleep, infinity]
`, false)
	for name, body := range map[string]string{
		"compose.yaml": `services:
  db:
    image: postgres:16.9-bookworm
    ports: ["5432:5432", "0.0.0.0:5433:5433"]
    volumes: ["pg:/var/lib/postgresql/data"]
    networks: [back]
  app:
    build: .
    volumes: [".:/src"]
networks:
  back: {}
volumes:
  pg: {}
`,
		"Dockerfile": "FROM busybox:1.36\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	noGPUMachine(t)
	t.Setenv("DEVENV_CACHE", t.TempDir())
	out, errOut, code := runCLI(t, "config")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"db  compose=compose.yaml", "image:    postgres:16.9-bookworm",
		"port:     127.0.0.1:5432 -> 5432/tcp (" + app.LoopbackNote + ")", "port:     0.0.0.0:5433 -> 5433/tcp\n",
		"volume:   demo_pg -> /var/lib/postgresql/data", "networks: back",
		"label:    dev.devenv.project=demo",
		"app  compose=compose.yaml", "image:    devenv/demo-app:", "(built by devenv from build:)",
		"volume:   " + dir + " -> /src", "networks: default (demo)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("config text lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = runCLI(t, "config", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var cfg app.Config
	if err := json.Unmarshal([]byte(out), &cfg); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if got := cfg.ServiceNames(); !slices.Equal(got, []string{"shell", "app", "db"}) {
		t.Errorf("ServiceNames = %v, want devenv's then compose's: shell, app, db", got)
	}
	for _, s := range cfg.Compose {
		if s.Name == "db" && (len(s.Ports) != 2 || s.Ports[0].HostIP != "127.0.0.1" || s.Ports[0].Note != app.LoopbackNote ||
			s.Ports[1].Note != "" || s.Labels["dev.devenv.service"] != "db") {
			t.Errorf("--json db = %+v; want its two ports (127.0.0.1, noted as devenv's difference, where the file names no address) and devenv's labels", s)
		}
	}
}
