package e2e

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	// compose files are loaded in this process, as devenv-compose does for devenv
	_ "github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/internal/app"
	composesdk "github.com/docker/compose/v5/pkg/compose"
)

// TestComposeExportIsTheRunProject: `devenv export compose` writes the
// project devenv runs, loaded by the tool that consumes it. Compose's own
// CLI (`config --hash '*'`, DEVENV_TEST_COMPOSE or docker compose v2) gives
// every service of the exported file the config hash of the project devenv
// renders for up (project.FromPlan of up's plan, computed in this process
// with the Compose SDK's ServiceHash): a spark-rapids service with a
// generated spark-defaults.conf, an env_file, a $ in env: and the Jupyter
// token; an image service with a bind mount and a named volume; a compose
// service with its own env_file and a variable from .env. No value of an
// env_file, of .env or the token is in the file.
func TestComposeExportIsTheRunProject(t *testing.T) {
	tool := composeV2(t)
	w := newWorld(t)
	files := map[string]string{
		"compose.yaml": `services:
  box:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    env_file: box.env
    environment:
      BOX_USER: ${BOX_USER}
      PLAIN: "literal $$ sign"
    healthcheck:
      test: ["CMD", "true"]
      interval: 1s
      retries: 3
`,
		".env":       "BOX_USER=canary-dotenv-user\n",
		"box.env":    "BOX_PASSWORD=canary-box-secret\n",
		"spark.env":  "AWS_SECRET_ACCESS_KEY=canary-aws-secret\nMODE=from-file\n",
		"data/.keep": "",
	}
	dir, _ := w.project(t, `compose: [compose.yaml]
services:
  spark:
    profile: spark-rapids
    spark: "`+sparkVersion+`"
    rapids: "`+rapidsVersion+`"
    java: "17"
    gpus: 1
    gpu: optional
    env_file: spark.env
    env: {MODE: from-devenv-yaml, PRICE: "$5"}
    depends_on: [box]
  shell:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
    volumes: ["./data:/data", "cache:/cache"]
`, files)
	w.must(t, dir, "lock")
	r := w.must(t, dir, "export", "compose", "-o", "compose.devenv.yaml", "--json")
	res := decode[app.ExportResult](t, r.Stdout)
	file := filepath.Join(dir, "compose.devenv.yaml")
	// the images come through the stand-in mirror: the override that names
	// them so is written next to the export, in .devenv
	override := filepath.Join(dir, ".devenv", "compose.mirrors.yaml")
	if len(res.Written) != 2 || res.Written[0] != "compose.devenv.yaml" || res.Written[1] != override || !res.Pinned {
		t.Errorf("export --json: written %v pinned %v; want compose.devenv.yaml and %s, pinned", res.Written, res.Pinned, override)
	}
	exported := readFile(t, file)
	token := strings.TrimSpace(readFile(t, filepath.Join(dir, ".devenv", "jupyter-token")))
	for _, secret := range []string{"canary-box-secret", "canary-aws-secret", "canary-dotenv-user", token} {
		if strings.Contains(exported, secret) {
			t.Errorf("the export holds %q, a secret or a value of an env_file or .env:\n%s", secret, exported)
		}
	}

	if res.RunWith == "" {
		t.Fatalf("export --json gives no run_with line: %s", r.Stdout)
	}
	got := composeHashes(t, tool, dir, res.RunWith)
	want := runHashes(t, w, dir)
	if len(got) != len(want) {
		t.Errorf("compose hashes services %v, devenv's project has %v", keys(got), keys(want))
	}
	for svc, h := range want {
		if got[svc] != h {
			t.Errorf("%s: %s config --hash gives %q for the export, devenv's project %s", svc, strings.Join(tool, " "), got[svc], h)
		}
	}
	if t.Failed() {
		t.Logf("the export:\n%s", exported)
	}
}

// composeHashes runs `config --hash '*'` with the files and variables of
// the line the export printed (its Jupyter token, the mirrors override),
// from the project directory.
func composeHashes(t *testing.T, tool []string, dir, line string) map[string]string {
	t.Helper()
	out, _ := runPrinted(t, tool, dir, line, []string{"config", "--hash", "'*'"})
	hashes := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		svc, h, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("config --hash printed %q, want SERVICE HASH lines", line)
		}
		hashes[svc] = h
	}
	return hashes
}

// runHashes are the Compose config hashes of the project devenv renders
// for up: up's plan (the fresh lock, this machine), project.FromPlan with
// the network and volumes devenv makes, the SDK's ServiceHash. The test
// process plans with devenv's environment (its cache).
func runHashes(t *testing.T, w *world, dir string) map[string]string {
	t.Helper()
	for _, kv := range w.env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	ctx := t.Context()
	p, err := app.Open(ctx, app.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	lf, err := p.ReadLock()
	if err != nil || lf == nil {
		t.Fatalf("reading devenv.lock: %v", err)
	}
	pl, err := p.Plan(ctx, app.PlanOptions{Lock: lf})
	if err != nil {
		t.Fatal(err)
	}
	proj, err := project.FromPlan(pl.Plan, project.Options{WorkingDir: dir, External: true})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for svcName, svc := range proj.Services {
		// Compose's CLI merges env_files into environment and leaves them
		// out of the service before it hashes or creates a container;
		// FromPlan's environment holds the merged values but keeps a
		// compose service's env_file paths
		svc.EnvFiles = nil
		h, err := composesdk.ServiceHash(svc)
		if err != nil {
			t.Fatal(err)
		}
		out[svcName] = h
	}
	return out
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
