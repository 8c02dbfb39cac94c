package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/container"
)

func upYAML(webEnv string, sparkUI int) string {
	return `services:
  spark:
    profile: spark-rapids
    spark: "` + sparkVersion + `"
    rapids: "` + rapidsVersion + `"
    java: "17"
    jupyter: false
    gpus: 1
    gpu: optional
    ports: ["` + fmt.Sprint(sparkUI) + `:4040"]
    volumes: ["./data:/data:ro", "cache:/cache"]
    env: {TZ: UTC}
    env_file: .env.local
    conf: {spark.sql.shuffle.partitions: "64"}
  web:
    profile: image
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    env: {MODE: "` + webEnv + `"}
    depends_on: [spark]
  trainer:
    profile: image
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    gpus: [0]
    gpu: required
`
}

type upOut struct {
	Changes []struct{ Service, Action string }
}

func actions(t *testing.T, stdout string) map[string]string {
	out := map[string]string{}
	for _, c := range decode[upOut](t, stdout).Changes {
		if c.Action != "built" && c.Action != "pulled" {
			out[c.Service] = c.Action
		}
	}
	return out
}

// TestUpLifecycle drives a project from nothing to running and back, and
// checks what reaches the engine.
func TestUpLifecycle(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sparkUI := freePort(t)
	dir, name := w.project(t, upYAML("a", sparkUI), map[string]string{".env.local": "FROM_FILE=yes\n", "data/x.txt": "x"})
	w.must(t, dir, "lock")

	// gpu: required on an engine without a GPU runtime stops before anything is created.
	r := w.run(t, dir, "up")
	if r.Code != 4 || !strings.Contains(r.Stderr, "nvidia-ctk runtime configure") || !strings.Contains(r.Stderr, "trainer") {
		t.Fatalf("up with a required GPU: exit %d\n%s", r.Code, r.Stderr)
	}
	if got := projectContainers(t, name); len(got) != 0 {
		t.Fatalf("a refused up created %v", got)
	}

	// --no-start shows exactly what reaches the engine.
	w.must(t, dir, "up", "--no-start", "trainer")
	tr := inspect(t, name+"-trainer")
	reqs := tr.HostConfig.DeviceRequests
	if len(reqs) != 1 || reqs[0].Count != 0 || strings.Join(reqs[0].DeviceIDs, ",") != "0" ||
		len(reqs[0].Capabilities) != 1 || strings.Join(reqs[0].Capabilities[0], ",") != "gpu" {
		t.Fatalf("trainer DeviceRequests = %+v, want DeviceIDs [0] with [[gpu]]", reqs)
	}
	if env := envOf(tr); env["NVIDIA_VISIBLE_DEVICES"] != "0" || env["NVIDIA_DRIVER_CAPABILITIES"] != "compute,utility" {
		t.Errorf("trainer NVIDIA env = %v", env)
	}
	// Letting the engine decide gives its refusal, explained.
	r = w.run(t, dir, "up", "--skip-gpu-check", "trainer")
	if r.Code != 4 || !strings.Contains(r.Stderr, "nvidia-ctk") {
		t.Fatalf("engine refusal: exit %d\n%s", r.Code, r.Stderr)
	}

	// The CPU-fallback spark service and web come up, built from the real template.
	r = w.must(t, dir, "up", "--json", "--wait", "spark", "web")
	if a := actions(t, r.Stdout); a["spark"] != "created" || a["web"] != "created" {
		t.Fatalf("first up actions %v", a)
	}
	checkSpark(t, dir, name, sparkUI)

	// Unchanged: a no-op. Changed web: only web is recreated.
	sparkID := inspect(t, name+"-spark").ID
	r = w.must(t, dir, "up", "--json", "spark", "web")
	if a := actions(t, r.Stdout); a["spark"] != "unchanged" || a["web"] != "unchanged" {
		t.Fatalf("second up actions %v", a)
	}
	writeFile(t, dir, "devenv.yaml", strings.Replace(readFile(t, filepath.Join(dir, "devenv.yaml")), `MODE: "a"`, `MODE: "b"`, 1))
	r = w.must(t, dir, "up", "--json", "spark", "web")
	if a := actions(t, r.Stdout); a["spark"] != "unchanged" || a["web"] != "recreated" {
		t.Fatalf("after editing web: %v", a)
	}
	if inspect(t, name+"-spark").ID != sparkID {
		t.Error("spark was recreated although it did not change")
	}
	if envOf(inspect(t, name+"-web"))["MODE"] != "b" {
		t.Error("web did not get its new env")
	}

	checkPsExecLogs(t, w, dir)
	checkConfSurvivesAndFollowsChanges(t, w, dir)
	checkDownLeavesOthers(t, w, dir, name)
}

func checkSpark(t *testing.T, dir, name string, sparkUI int) {
	c := inspect(t, name+"-spark")
	for k, v := range map[string]string{"dev.devenv.project": name, "dev.devenv.service": "spark", "dev.devenv.cpu-fallback": "true"} {
		if c.Config.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, c.Config.Labels[k], v)
		}
	}
	if c.Config.Labels["dev.devenv.config-hash"] == "" {
		t.Error("no config-hash label")
	}
	if !strings.HasPrefix(c.Config.Image, "devenv/"+name+"-spark:") {
		t.Errorf("image %s is not devenv/<project>-<service>:<hash>", c.Config.Image)
	}
	b := c.HostConfig.PortBindings["4040/tcp"]
	if len(b) != 1 || b[0].HostIP != "127.0.0.1" || b[0].HostPort != fmt.Sprint(sparkUI) {
		t.Errorf("4040 bound as %+v, want 127.0.0.1:%d", b, sparkUI)
	}
	if len(c.HostConfig.DeviceRequests) != 0 {
		t.Errorf("CPU fallback still asks for GPUs: %+v", c.HostConfig.DeviceRequests)
	}
	env := envOf(c)
	if env["TZ"] != "UTC" || env["FROM_FILE"] != "yes" || env["NVIDIA_VISIBLE_DEVICES"] != "void" {
		t.Errorf("env %v", env)
	}
	mounts := map[string]container.MountPoint{}
	for _, m := range c.Mounts {
		mounts[m.Destination] = m
	}
	if m := mounts["/workspace"]; m.Source != dir || !m.RW {
		t.Errorf("workspace mount %+v", m)
	}
	if m := mounts["/data"]; m.RW || m.Source != filepath.Join(dir, "data") {
		t.Errorf("/data mount %+v, want read-only ./data", m)
	}
	if m, ok := mounts["/opt/devenv/conf"]; ok {
		t.Errorf("the generated conf is bind-mounted from the host: %+v", m)
	}
	if m := mounts["/cache"]; m.Type != "volume" || m.Name != name+"_cache" {
		t.Errorf("/cache mount %+v", m)
	}
	if v, err := standin.Docker(t).VolumeInspect(t.Context(), name+"_cache"); err != nil || v.Labels["dev.devenv.dir"] != dir {
		t.Errorf("volume %s_cache labels %v (%v), want dev.devenv.dir=%s", name, v.Labels, err, dir)
	}
	hostConf := filepath.Join(dir, ".devenv", "generated", "spark", "spark-defaults.conf")
	if st, err := os.Stat(hostConf); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("host copy %s: mode %v (%v), want 0600", hostConf, st.Mode().Perm(), err)
	}
	conf := readFile(t, hostConf)
	for _, want := range []string{"spark.rapids.sql.enabled", "false", "spark.sql.shuffle.partitions", "64"} {
		if !strings.Contains(conf, want) {
			t.Errorf("spark-defaults.conf lacks %q:\n%s", want, conf)
		}
	}
	if confHasKey(conf, "spark.plugins") {
		t.Errorf("CPU fallback still loads the plugin:\n%s", conf)
	}
}

func checkPsExecLogs(t *testing.T, w *world, dir string) {
	type ps struct {
		Service, State string
		CPUFallback    bool `json:"cpu_fallback"`
	}
	rows := decode[[]ps](t, w.must(t, dir, "ps", "--json").Stdout)
	seen := map[string]ps{}
	for _, r := range rows {
		seen[r.Service] = r
	}
	if seen["spark"].State != "running" || !seen["spark"].CPUFallback || seen["web"].State != "running" {
		t.Errorf("ps: %+v", rows)
	}
	if r := w.run(t, dir, "exec", "-T", "spark", "--", "sh", "-c", "java -version 2>&1; test -f /opt/sparkRapidsPlugin/rapids-4-spark_2.12-"+rapidsVersion+".jar; exit 3"); r.Code != 3 || !strings.Contains(r.Stdout, "openjdk") {
		t.Errorf("exec: exit %d, out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	if r := w.run(t, dir, "exec", "-T", "spark", "--", "ps", "-p", "1", "-o", "comm="); r.Code != 0 || strings.TrimSpace(r.Stdout) == "" {
		t.Errorf("ps in the Spark image (procps): exit %d, out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	checkConfInContainer(t, w, dir, "64")
	w.must(t, dir, "exec", "-T", "web", "--", "sh", "-c", "echo hello-from-web")
	if r := w.must(t, dir, "logs", "--tail", "5", "web"); r.Code != 0 {
		t.Errorf("logs: %s", r.Stderr)
	}
}

// checkConfInContainer checks the spark service's user (the host user's
// ids) reads its spark-defaults.conf, which Compose copies in root-owned
// and readable (0444: Docker 20.10 cannot chown a copy to a named
// container user), with spark.sql.shuffle.partitions set to partitions.
func checkConfInContainer(t *testing.T, w *world, dir, partitions string) {
	t.Helper()
	// The image user has this (the host) user's ids: root's here in CI,
	// 4321 in TestContainerUserIsTheHostUser.
	r := w.run(t, dir, "exec", "-T", "spark", "--", "sh", "-c", "id -u; stat -c '%a %u:%g' /opt/devenv/conf/spark-defaults.conf; cat /opt/devenv/conf/spark-defaults.conf")
	want := fmt.Sprintf("%d\n444 0:0\n", os.Getuid())
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, want) || !hasLine(r.Stdout, "spark.sql.shuffle.partitions", partitions) {
		t.Errorf("spark-defaults.conf in the container: exit %d, want the service's user (the host user) reading it (%q) with partitions %s\n%s\n%s",
			r.Code, want, partitions, r.Stdout, r.Stderr)
	}
}

// checkConfSurvivesAndFollowsChanges: the conf copied into the container
// is still there after a stop and start, and a conf change recreates the
// container, which gets the new conf.
func checkConfSurvivesAndFollowsChanges(t *testing.T, w *world, dir string) {
	w.must(t, dir, "stop", "spark")
	w.must(t, dir, "start", "spark")
	checkConfInContainer(t, w, dir, "64")
	writeFile(t, dir, "devenv.yaml", strings.Replace(readFile(t, filepath.Join(dir, "devenv.yaml")), `spark.sql.shuffle.partitions: "64"`, `spark.sql.shuffle.partitions: "48"`, 1))
	r := w.must(t, dir, "up", "--json", "spark", "web")
	if a := actions(t, r.Stdout); a["spark"] != "recreated" {
		t.Fatalf("after changing spark's conf: %v, want spark recreated", a)
	}
	checkConfInContainer(t, w, dir, "48")
}

// checkDownLeavesOthers checks down removes every object of the project and
// nothing else: an unrelated container survives.
func checkDownLeavesOthers(t *testing.T, w *world, dir, name string) {
	cli := standin.Docker(t)
	ctx := t.Context()
	other, err := cli.ContainerCreate(ctx, &container.Config{Image: standin.DebianRef, Cmd: []string{"sleep", "60"}}, nil, nil, nil, name+"-unrelated")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cli.ContainerRemove(ctx, other.ID, container.RemoveOptions{Force: true}) }()
	w.must(t, dir, "down", "--volumes")
	if left := projectContainers(t, name); len(left) != 0 {
		t.Errorf("down left %v", left)
	}
	if _, err := cli.ContainerInspect(ctx, other.ID); err != nil {
		t.Errorf("down removed an unrelated container: %v", err)
	}
	if _, err := cli.VolumeInspect(ctx, name+"_cache"); err == nil {
		t.Error("down --volumes left the named volume")
	}
}

// confHasKey reports whether a spark-defaults.conf sets key (comments aside).
func confHasKey(conf, key string) bool {
	for _, line := range strings.Split(conf, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == key {
			return true
		}
	}
	return false
}
