package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// composeTool finds this machine's compose implementation: the Docker CLI
// plugin, else the standalone docker-compose. It skips the test, saying
// why, when there is neither.
func composeTool(t *testing.T) []string {
	t.Helper()
	if err := exec.Command("docker", "compose", "version").Run(); err == nil {
		return []string{"docker", "compose"}
	}
	if err := exec.Command("docker-compose", "version").Run(); err == nil {
		return []string{"docker-compose"}
	}
	t.Skip("neither `docker compose version` nor `docker-compose version` works on this machine: no compose tool to run the export with")
	return nil
}

func composeRun(t *testing.T, tool []string, dir string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool[0], append(tool[1:], args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", strings.Join(tool, " "), strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestComposeExportRuns exports a locked project (a devenv service pinned
// by digest through the stand-in registry, depending on a compose service
// with a healthcheck) and runs the export with the machine's compose tool:
// both containers must come up with the planned image, command and labels.
func TestComposeExportRuns(t *testing.T) {
	tool := composeTool(t)
	w := newWorld(t)
	files := map[string]string{"compose.yaml": `services:
  box:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    healthcheck:
      test: ["CMD", "true"]
      interval: 1s
      retries: 3
`}
	dir, name := w.project(t, `compose: [compose.yaml]
services:
  shell:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
    depends_on: [box]
`, files)
	w.must(t, dir, "lock")
	w.must(t, dir, "export", "compose", "-o", "compose.devenv.yaml")
	file := filepath.Join(dir, "compose.devenv.yaml")
	exported := readFile(t, file)
	if !strings.Contains(exported, "@sha256:"+strings.TrimPrefix(w.digests[plainBase], "sha256:")) {
		t.Errorf("the export does not pin shell's image by the lock's digest %s:\n%s", w.digests[plainBase], exported)
	}
	t.Cleanup(func() { composeRunQuiet(tool, dir, "-p", name, "-f", file, "down", "-v", "--remove-orphans") })
	composeRun(t, tool, dir, "-p", name, "-f", file, "up", "-d")
	running := map[string]bool{}
	for _, c := range projectContainers(t, name) {
		in := inspect(t, c)
		if svc := in.Config.Labels["dev.devenv.service"]; svc != "" {
			running[svc] = in.State.Running
		}
		if in.Config.Labels["dev.devenv.service"] == "shell" && strings.Join(in.Config.Cmd, " ") != "sleep infinity" {
			t.Errorf("shell runs %v, want sleep infinity", in.Config.Cmd)
		}
	}
	for _, svc := range []string{"box", "shell"} {
		if !running[svc] {
			t.Errorf("service %s is not running after compose up (containers: %v)", svc, running)
		}
	}
	composeRun(t, tool, dir, "-p", name, "-f", file, "down", "-v", "--remove-orphans")
	if left := projectContainers(t, name); len(left) != 0 {
		t.Errorf("containers left after compose down: %v", left)
	}
}

func composeRunQuiet(tool []string, dir string, args ...string) {
	cmd := exec.Command(tool[0], append(tool[1:], args...)...)
	cmd.Dir = dir
	_ = cmd.Run()
}

// TestComposeServiceRunsBesideDevenv imports a compose service (a stand-in
// image, a named volume, a published port) and runs it next to a devenv
// service that depends on it, through devenv up and down.
func TestComposeServiceRunsBesideDevenv(t *testing.T) {
	w := newWorld(t)
	files := map[string]string{"compose.yaml": `services:
  box:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    ports: ["9099:9000"]
    volumes: ["boxdata:/data"]
    healthcheck:
      test: ["CMD", "true"]
      interval: 1s
      retries: 3
volumes:
  boxdata: {}
`}
	dir, name := w.project(t, `compose: [compose.yaml]
services:
  shell:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
    depends_on: [box]
`, files)
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")
	box := inspect(t, name+"-box")
	if box.Config.Labels["dev.devenv.project"] != name || !box.State.Running {
		t.Fatalf("box: labels %v running %v", box.Config.Labels, box.State.Running)
	}
	if b := box.HostConfig.PortBindings["9000/tcp"]; len(b) != 1 || b[0].HostIP != "127.0.0.1" || b[0].HostPort != "9099" {
		t.Errorf("box port %+v, want 127.0.0.1:9099", b)
	}
	if _, ok := box.NetworkSettings.Networks[name]; !ok {
		t.Errorf("box is not on the project network: %v", box.NetworkSettings.Networks)
	}
	if r := w.must(t, dir, "exec", "-T", "shell", "--", "getent", "hosts", "box"); !strings.Contains(r.Stdout, "box") {
		t.Errorf("shell cannot resolve the compose service by name: %q", r.Stdout)
	}
	if r := w.must(t, dir, "logs", "--tail", "1", "box"); r.Code != 0 {
		t.Error(r.Stderr)
	}
	w.must(t, dir, "down", "--volumes")
	if left := projectContainers(t, name); len(left) != 0 {
		t.Errorf("down left %v", left)
	}
	if _, err := standin.Docker(t).VolumeInspect(t.Context(), name+"_boxdata"); err == nil {
		t.Error("down --volumes left the compose service's named volume")
	}
}
