package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
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

// composeWithConfigs finds a compose tool that copies configs: content into
// containers (Docker Compose 2.23 or later): DEVENV_TEST_COMPOSE (the path
// of a docker-compose binary), else this machine's (composeTool). It skips
// the test, saying why, when the tool says it is older; a build from source
// ("dev") is taken to be recent.
func composeWithConfigs(t *testing.T) []string {
	t.Helper()
	tool := []string{os.Getenv("DEVENV_TEST_COMPOSE")}
	if tool[0] == "" {
		tool = composeTool(t)
	}
	out, err := exec.Command(tool[0], append(tool[1:], "version", "--short")...).Output()
	if err != nil {
		t.Fatalf("%s version --short: %v", strings.Join(tool, " "), err)
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	var major, minor int
	if _, perr := fmt.Sscanf(v, "%d.%d", &major, &minor); perr == nil && (major < 2 || (major == 2 && minor < 23)) {
		t.Skipf("%s is version %s: configs with content need Docker Compose 2.23 or later; set DEVENV_TEST_COMPOSE to one", strings.Join(tool, " "), v)
	}
	return tool
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

// TestComposeExportRuns is a new user on this CPU-only machine: a locked
// project (a devenv service pinned by digest through the stand-in
// registry, asking for a GPU with gpu: optional and reading an env_file,
// depending on a compose service with a healthcheck and its own env_file)
// is exported and run with the machine's compose tool. Both containers
// must come up with the planned image and command, get the env_files'
// values from the files (which the export refers to and never copies),
// reserve no GPU, and be devenv's: the export is the project devenv runs,
// so its containers carry devenv's labels and devenv ps lists them. The
// export is Compose v2's (configs: content:, depends_on required:).
func TestComposeExportRuns(t *testing.T) {
	t.Parallel()
	tool := composeV2(t)
	w := newWorld(t)
	files := map[string]string{
		"compose.yaml": `services:
  box:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    env_file: box.env
    healthcheck:
      test: ["CMD", "true"]
      interval: 1s
      retries: 3
`,
		"box.env":   "BOX_PASSWORD=canary-box-secret\n",
		"shell.env": "SHELL_TOKEN=canary-shell-secret\nMODE=from-file\n",
	}
	dir, name := w.project(t, `compose: [compose.yaml]
services:
  shell:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
    gpus: 1
    gpu: optional
    env_file: shell.env
    env: {MODE: from-devenv-yaml}
    depends_on: [box]
`, files)
	w.must(t, dir, "lock")
	printed := w.must(t, dir, "export", "compose", "-o", "compose.devenv.yaml")
	file := filepath.Join(dir, "compose.devenv.yaml")
	exported := readFile(t, file)
	if !strings.Contains(exported, "@sha256:"+strings.TrimPrefix(w.digests[plainBase], "sha256:")) {
		t.Errorf("the export does not pin shell's image by the lock's digest %s:\n%s", w.digests[plainBase], exported)
	}
	for _, secret := range []string{"canary-box-secret", "canary-shell-secret"} {
		if strings.Contains(exported, secret) {
			t.Errorf("the export holds %q, a value of an env_file:\n%s", secret, exported)
		}
	}
	t.Cleanup(func() { composeRunQuiet(tool, dir, "-p", name, "-f", file, "down", "-v", "--remove-orphans") })
	// the line the export printed: the images through this machine's
	// mirrors (the file names devenv.lock's, which only the stand-in has here)
	runPrinted(t, tool, dir, printedRunLine(t, printed), nil)
	byService := composeContainers(t, name)
	for _, svc := range []string{"box", "shell"} {
		c, ok := byService[svc]
		if !ok || !c.State.Running {
			t.Fatalf("service %s is not running after compose up (containers: %v)", svc, byService)
		}
		if len(c.HostConfig.DeviceRequests) != 0 {
			t.Errorf("%s reserves %v on a machine without a GPU", svc, c.HostConfig.DeviceRequests)
		}
		if l := c.Config.Labels; l["dev.devenv.project"] != name || l["dev.devenv.service"] != svc {
			t.Errorf("%s is labelled %v, not as service %s of devenv's project %s", svc, l, svc, name)
		}
	}
	if got := strings.Join(byService["shell"].Config.Cmd, " "); got != "sleep infinity" {
		t.Errorf("shell runs %q, want sleep infinity", got)
	}
	if env := envOf(byService["shell"]); env["SHELL_TOKEN"] != "canary-shell-secret" || env["MODE"] != "from-devenv-yaml" {
		t.Errorf("shell env SHELL_TOKEN=%q MODE=%q; want the file's token and env:'s MODE over the file's", env["SHELL_TOKEN"], env["MODE"])
	}
	if env := envOf(byService["box"]); env["BOX_PASSWORD"] != "canary-box-secret" {
		t.Errorf("box env BOX_PASSWORD=%q, want the value of box.env", env["BOX_PASSWORD"])
	}
	if ps := w.must(t, dir, "ps", "--json"); !strings.Contains(ps.Stdout, "shell") || !strings.Contains(ps.Stdout, "box") {
		t.Errorf("devenv ps does not list the containers docker compose started from the export:\n%s", ps.Stdout)
	}
	composeRun(t, tool, dir, "-p", name, "-f", file, "down", "-v", "--remove-orphans")
	if left := composeContainers(t, name); len(left) != 0 {
		t.Errorf("containers left after compose down: %v", left)
	}
}

// TestComposeExportCarriesSparkConf runs the compose export of a
// spark-rapids service with a compose tool that reads configs: content:
// the container gets the very spark-defaults.conf devenv generated,
// copied in (no bind mount of the host's 0600 copy) and readable by the
// service's user.
func TestComposeExportCarriesSparkConf(t *testing.T) {
	t.Parallel()
	tool := composeWithConfigs(t)
	w := newWorld(t)
	dir, name := w.project(t, oneSpark, nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "build", "spark")
	w.must(t, dir, "export", "compose", "-o", "compose.devenv.yaml")
	file := filepath.Join(dir, "compose.devenv.yaml")
	t.Cleanup(func() { composeRunQuiet(tool, dir, "-p", name, "-f", file, "down", "-v", "--remove-orphans") })
	composeRun(t, tool, dir, "-p", name, "-f", file, "up", "-d")
	spark, ok := composeContainers(t, name)["spark"]
	if !ok || !spark.State.Running {
		t.Fatalf("spark is not running after compose up")
	}
	for _, m := range spark.Mounts {
		if strings.Contains(m.Source, ".devenv") {
			t.Errorf("spark mounts %s from the host", m.Source)
		}
	}
	out := composeRun(t, tool, dir, "-p", name, "-f", file, "exec", "-T", "spark", "sh", "-c",
		"id -u; stat -c %a /opt/devenv/conf/spark-defaults.conf; cat /opt/devenv/conf/spark-defaults.conf")
	// the image user has this process's uid on a local engine (images.HostUser):
	// as root its name is root's, so the uid is what to compare
	want := strconv.Itoa(os.Getuid()) + "\n444\n" + readFile(t, filepath.Join(dir, ".devenv", "generated", "spark", "spark-defaults.conf"))
	if out != want {
		t.Errorf("in the compose-run container:\n%s\nwant the service's user reading the generated conf (0444):\n%s", out, want)
	}
}

// composeContainers are the containers of compose project name, by service.
func composeContainers(t *testing.T, name string) map[string]container.InspectResponse {
	t.Helper()
	list, err := standin.Docker(t).ContainerList(t.Context(), container.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", "com.docker.compose.project="+name))})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]container.InspectResponse{}
	for _, c := range list {
		out[c.Labels["com.docker.compose.service"]] = inspect(t, c.ID)
	}
	return out
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
	t.Parallel()
	w := newWorld(t)
	port := fmt.Sprint(freePort(t))
	files := map[string]string{"compose.yaml": `services:
  box:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    ports: ["` + port + `:9000"]
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
	if b := box.HostConfig.PortBindings["9000/tcp"]; len(b) != 1 || b[0].HostIP != "127.0.0.1" || b[0].HostPort != port {
		t.Errorf("box port %+v, want 127.0.0.1:%s", b, port)
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
