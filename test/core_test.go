package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// appYAML is one plain-image service from the stand-in registry.
func appYAML(extra string) string {
	return `services:
  app:
    profile: image
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
` + extra
}

// TestMissingEnvFileOnlyBlocksStart: a git-ignored env_file that a fresh
// clone lacks must not stop lock, lock --check, config, export or ps; up
// refuses before creating anything and says which file devenv.yaml names
// where, and comes up once the file exists.
func TestMissingEnvFileOnlyBlocksStart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, appYAML("    env_file: .env.local\n"), nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "lock", "--check")
	if r := w.must(t, dir, "config"); !strings.Contains(r.Stdout+r.Stderr, "env_file .env.local does not exist") {
		t.Errorf("config does not say the env_file is missing:\n%s%s", r.Stdout, r.Stderr)
	}
	if r := w.must(t, dir, "export", "compose"); !strings.Contains(r.Stdout, "services:") {
		t.Errorf("export compose:\n%s", r.Stdout)
	}
	w.must(t, dir, "ps")

	r := w.run(t, dir, "up")
	// devenv.yaml is "name: ...\n" then appYAML: env_file is on line 7.
	want := `devenv.yaml:7:5: env_file ".env.local" of service "app" does not exist; starting the container needs it`
	if r.Code != 1 || !strings.Contains(r.Stderr, want) {
		t.Fatalf("up without the env_file: exit %d, want 1 saying %q\n%s", r.Code, want, r.Stderr)
	}
	if got := projectContainers(t, name); len(got) != 0 {
		t.Fatalf("up created %v although it refused", got)
	}

	writeFile(t, dir, ".env.local", "FROM_FILE=yes\n")
	w.must(t, dir, "up", "--wait")
	if env := envOf(inspect(t, name+"-app")); env["FROM_FILE"] != "yes" {
		t.Errorf("the container lacks the env_file's variable: %v", env)
	}
}

// TestLockDriftNamesInputs: edits that pin nothing (a port, env, a comment)
// leave the lock fresh; changing the image makes lock --check and
// up --frozen exit 5 naming the input that changed, before anything is
// created.
func TestLockDriftNamesInputs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, appYAML(""), nil)
	w.must(t, dir, "lock")
	lockBefore := readFile(t, filepath.Join(dir, "devenv.lock"))
	path := filepath.Join(dir, "devenv.yaml")

	edited := strings.Replace(readFile(t, path), "    command:", fmt.Sprintf("    # the app\n    ports: [\"%d:80\"]\n    env: {MODE: b}\n    command:", freePort(t)), 1)
	writeFile(t, dir, "devenv.yaml", edited)
	if r := w.run(t, dir, "lock", "--check"); r.Code != 0 {
		t.Fatalf("a port, env and comment made the lock stale: exit %d\n%s", r.Code, r.Stderr)
	}
	w.must(t, dir, "lock")
	if readFile(t, filepath.Join(dir, "devenv.lock")) != lockBefore {
		t.Error("devenv lock rewrote the lock after edits that pin nothing")
	}

	writeFile(t, dir, "devenv.yaml", strings.Replace(edited, plainBase, cudaBase, 1))
	want := fmt.Sprintf(`service "app": image changed from "nvcr.io/%s" to "nvcr.io/%s"`, plainBase, cudaBase)
	for _, args := range [][]string{{"lock", "--check"}, {"up", "--frozen"}} {
		r := w.run(t, dir, args...)
		if r.Code != 5 || !strings.Contains(r.Stderr, want) {
			t.Errorf("devenv %s: exit %d, want 5 saying %q\n%s", strings.Join(args, " "), r.Code, want, r.Stderr)
		}
	}
	if got := projectContainers(t, name); len(got) != 0 {
		t.Fatalf("up --frozen created %v with a stale lock", got)
	}
}

// TestSecondWorkspaceMountRefusedAtLoad: listing the project at /workspace
// again (as every starter once did) fails config and up with exit 2 and
// the line and column, before any image is built or container created.
func TestSecondWorkspaceMountRefusedAtLoad(t *testing.T) {
	t.Parallel()
	name := fmt.Sprintf("e2e%d", freePort(t))
	dir := standin.Project(t, map[string]string{"devenv.yaml": "name: " + name + `
services:
  spark:
    profile: spark-rapids
    gpu: optional
    volumes: ["./:/workspace"]
`})
	standin.CleanupProject(t, name)
	want := `devenv.yaml:6:15: volume "./:/workspace" of service "spark" mounts at /workspace, where devenv already mounts the project directory`
	for _, args := range [][]string{{"config"}, {"lock"}, {"up", "--wait"}} {
		r := standin.Run(t, dir, nil, args...)
		if r.Code != 2 || !strings.Contains(r.Stderr, want) {
			t.Errorf("devenv %s: exit %d, want 2 saying %q\n%s", strings.Join(args, " "), r.Code, want, r.Stderr)
		}
	}
	if got := projectContainers(t, name); len(got) != 0 {
		t.Errorf("containers created: %v", got)
	}
}
