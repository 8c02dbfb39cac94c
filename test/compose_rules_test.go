package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestComposeRulesNameEnvFileProfiles runs, with the built programs, a
// devenv.yaml without a name: whose compose file names the project
// (top-level name:), has an optional env_file that is missing and a value
// that starts with a newline, and a service of a compose profile:
//   - the containers carry the compose file's project name (Compose's
//     rule: a declared name over the directory's), and config says so;
//   - up does not fail on the missing optional env_file, and the present
//     one's values reach the container; once written, the next up reads it;
//   - `--profile debug export compose` prints a run line that enables
//     debug once, and Compose's own CLI reads the export (missing.env
//     optional) with the same values and the profiled service.
func TestComposeRulesNameEnvFileProfiles(t *testing.T) {
	t.Parallel()
	tool := composeV2(t)
	w := newWorld(t)
	name := uniqueName("e2ecn")
	dir := standin.Project(t, map[string]string{
		"devenv.yaml": "compose: [compose.yaml]\n" + w.mirrors(),
		"compose.yaml": "name: " + name + `
services:
  box:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    env_file:
      - box.env
      - path: missing.env
        required: false
    environment:
      LEADING: "\nstarts with a newline"
      BLOCK: |
        x
        y
  dbg:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    profiles: [debug]
`,
		"box.env": "FROM_FILE=yes\n",
	})
	standin.CleanupProject(t, name)
	w.must(t, dir, "lock")
	cfg := decode[map[string]any](t, w.must(t, dir, "config", "--json").Stdout)
	if cfg["name"] != name || !strings.HasPrefix(cfg["name_from"].(string), "compose.yaml:1") {
		t.Errorf("config: project %v from %v; want %s from compose.yaml:1", cfg["name"], cfg["name_from"], name)
	}
	w.must(t, dir, "--profile", "debug", "up")
	byService := composeContainers(t, name)
	for _, svc := range []string{"box", "dbg"} {
		if c, ok := byService[svc]; !ok || !c.State.Running {
			t.Fatalf("service %s of project %s is not running after up (containers: %v)", svc, name, byService)
		}
	}
	env := envOf(byService["box"])
	if env["FROM_FILE"] != "yes" || env["LEADING"] != "\nstarts with a newline" || env["BLOCK"] != "x\ny\n" {
		t.Errorf("box env FROM_FILE=%q LEADING=%q BLOCK=%q; want box.env's value and the file's exact values", env["FROM_FILE"], env["LEADING"], env["BLOCK"])
	}
	// COMPOSE_PROFILES naming debug twice, then --profile: debug once
	again := standin.Run(t, dir, append(slices.Clone(w.env), "COMPOSE_PROFILES=debug,debug"), "export", "compose", "-o", "compose.devenv.yaml")
	printed := w.must(t, dir, "--profile", "debug", "export", "compose", "-o", "compose.devenv.yaml")
	line := printedRunLine(t, printed)
	for _, l := range []string{printedRunLine(t, again), line} {
		if strings.Count(l, "COMPOSE_PROFILES=debug ") != 1 {
			t.Errorf("the run line %q does not enable debug once", l)
		}
	}
	out, _ := runPrinted(t, tool, dir, line, []string{"config", "--format", "json"})
	var got struct {
		Name     string `json:"name"`
		Services map[string]struct {
			Environment map[string]*string `json:"environment"`
		} `json:"services"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("compose config of the export: %v\n%s", err, out)
	}
	box := got.Services["box"].Environment
	if _, ok := got.Services["dbg"]; got.Name != name || !ok || len(got.Services) != 2 {
		t.Errorf("Compose reads the export as project %q with services %v; want %s with box and dbg", got.Name, serviceNames(got.Services), name)
	}
	for k, want := range map[string]string{"FROM_FILE": "yes", "LEADING": "\nstarts with a newline", "BLOCK": "x\ny\n"} {
		if v := box[k]; v == nil || *v != want {
			t.Errorf("Compose reads the export's box %s as %v, want %q", k, v, want)
		}
	}
	// the optional file, once there, is read by the next up (as by Compose)
	writeFile(t, dir, "missing.env", "LATE=yes\n")
	w.must(t, dir, "--profile", "debug", "up")
	if env := envOf(composeContainers(t, name)["box"]); env["LATE"] != "yes" {
		t.Errorf("box env LATE=%q after missing.env was written and up ran again, want yes", env["LATE"])
	}
	w.must(t, dir, "down")
}

func serviceNames[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
