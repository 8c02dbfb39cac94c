package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// composeV2 is a Compose v2 or later (`docker compose` or
// DEVENV_TEST_COMPOSE): Compose v1 (docker-compose 1.29) cannot list a
// project without its compose file. It skips, saying why, when there is none.
func composeV2(t *testing.T) []string {
	t.Helper()
	tool := composeWithConfigs(t)
	out, err := exec.Command(tool[0], append(tool[1:], "version", "--short")...).Output()
	if err != nil {
		t.Fatalf("%s version --short: %v", strings.Join(tool, " "), err)
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	var major int
	if _, err := fmt.Sscanf(v, "%d", &major); err == nil && major < 2 {
		t.Skipf("%s is version %s: listing a project by name needs Compose v2 or later; set DEVENV_TEST_COMPOSE to one (make compose-cli builds the pinned one)", strings.Join(tool, " "), v)
	}
	return tool
}

// TestComposeSeesTheProject: after devenv up, `docker compose -p NAME ps`
// lists the project's containers (devenv's own service and a compose
// file's) and `logs` reads them, with no compose file at hand: the
// containers carry Compose's project, service and one-off labels. Running
// up again recreates nothing (those labels are outside devenv's hash).
func TestComposeSeesTheProject(t *testing.T) {
	t.Parallel()
	tool := composeV2(t)
	w := newWorld(t)
	dir, name := w.project(t, `compose: [compose.yaml]
services:
  shell:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sh", "-c", "echo hello-from-shell; exec sleep infinity"]
`, map[string]string{"compose.yaml": `services:
  side:
    image: nvcr.io/` + plainBase + `
    command: ["sh", "-c", "echo hello-from-side; exec sleep infinity"]
`})
	w.must(t, dir, "lock")
	w.must(t, dir, "up")
	ps := composeRun(t, tool, t.TempDir(), "-p", name, "ps", "--services")
	for _, svc := range []string{"shell", "side"} {
		if !strings.Contains(ps, svc) {
			t.Errorf("%s -p %s ps --services does not list %s:\n%s", strings.Join(tool, " "), name, svc, ps)
		}
	}
	names := composeRun(t, tool, t.TempDir(), "-p", name, "ps", "--format", "{{.Name}}")
	for _, c := range []string{name + "-shell", name + "-side"} {
		if !strings.Contains(names, c) {
			t.Errorf("compose ps does not list container %s:\n%s", c, names)
		}
	}
	logs := composeRun(t, tool, t.TempDir(), "-p", name, "logs", "--no-log-prefix", "side")
	if !strings.Contains(logs, "hello-from-side") {
		t.Errorf("compose logs side:\n%s", logs)
	}
	r := w.must(t, dir, "up", "--json")
	if strings.Contains(r.Stdout, `"recreated"`) || strings.Contains(r.Stdout, `"created"`) {
		t.Errorf("a second up changed containers:\n%s", r.Stdout)
	}
}
