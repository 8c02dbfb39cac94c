package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/volume"
)

// TestOneInit: a spark-rapids container runs a single init (the image's
// tini as PID 1) and its logs carry no "Tini is not running as PID 1".
func TestOneInit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, oneSpark, nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")
	if c := inspect(t, name+"-spark"); c.HostConfig.Init != nil && *c.HostConfig.Init {
		t.Errorf("the engine's init runs too (HostConfig.Init), under the image's tini")
	}
	r := w.must(t, dir, "exec", "-T", "spark", "--", "cat", "/proc/1/comm")
	if got := strings.TrimSpace(r.Stdout); got != "tini" {
		t.Errorf("PID 1 is %q, want tini", got)
	}
	logs := w.must(t, dir, "logs", "spark")
	if all := logs.Stdout + logs.Stderr; strings.Contains(all, "Tini is not running as PID 1") {
		t.Errorf("the container logs a second init's warning:\n%s", all)
	}
}

// TestPyPIPasswordNeverInTheImage: a PyPI mirror that needs a password
// installs the requirements, and the password is nowhere in the image's
// history or config (the classic builder records build arguments there).
func TestPyPIPasswordNeverInTheImage(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	index := standin.PyPI(t, "devenv-probe==1.2.3")
	const password = "pw-d3v3nv-never-in-history"
	index.RequireAuth("builder", password)
	w.pypi = index.AuthURL()
	dir, name := w.project(t, oneSpark+"    requirements: requirements.txt\n",
		map[string]string{"requirements.txt": "devenv-probe==1.2.3\n"})
	w.must(t, dir, "lock")
	w.must(t, dir, "build")
	cli := standin.Docker(t)
	ctx := t.Context()
	imgs, err := cli.ImageList(ctx, image.ListOptions{Filters: filters.NewArgs(filters.Arg("label", "dev.devenv.project="+name))})
	if err != nil || len(imgs) != 1 {
		t.Fatalf("images of the project: %v %v", imgs, err)
	}
	hist, err := cli.ImageHistory(ctx, imgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	_, raw, err := cli.ImageInspectWithRaw(ctx, imgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var history strings.Builder
	for _, h := range hist {
		history.WriteString(h.CreatedBy + "\n")
	}
	if strings.Contains(history.String(), password) || strings.Contains(string(raw), password) {
		t.Fatalf("the mirror's password is in the image:\n%s", history.String())
	}
	if !strings.Contains(history.String(), "PIP_INDEX_URL=http://127.0.0.1:") {
		t.Errorf("the build did not go through devenv's loopback proxy:\n%s", history.String())
	}
	var fetched bool
	for _, p := range index.Requests() {
		fetched = fetched || strings.HasPrefix(p, "/simple/files/devenv_probe-1.2.3")
	}
	if !fetched {
		t.Errorf("the wheel was not fetched from the mirror: %v", index.Requests())
	}
}

// TestFailedBuildShowsItsCause: without --verbose, a failed build prints
// the build's own last lines (here: a mirror host that does not resolve),
// without colour codes.
func TestFailedBuildShowsItsCause(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.pypi = "http://devenv-no-such-mirror.invalid/simple"
	dir, _ := w.project(t, oneSpark+"    requirements: requirements.txt\n",
		map[string]string{"requirements.txt": "devenv-probe==1.2.3\n"})
	w.must(t, dir, "lock")
	r := w.run(t, dir, "build")
	if r.Code != 1 {
		t.Fatalf("build with an unresolvable mirror: exit %d, want 1\n%s", r.Code, r.Stderr)
	}
	for _, want := range []string{"returned a non-zero code", "last lines of the build output", "devenv-no-such-mirror.invalid", "No matching distribution"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	if strings.Contains(r.Stderr, "\x1b[") {
		t.Errorf("stderr has colour codes although it is not a terminal:\n%q", r.Stderr)
	}
}

// plainPair is two plain services; web publishes container port 8080 on
// hostPort.
func plainPair(hostPort int) string {
	return fmt.Sprintf(`services:
  web:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
    ports: ["%d:8080"]
  worker:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
`, hostPort)
}

// TestUpRepairsARemovedNetwork: the project network removed behind devenv's
// back (containers disconnected while running, or stopped first) is made
// again and every container is put back on it with its ports published.
func TestUpRepairsARemovedNetwork(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, plainPair(freePort(t)), nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "up")
	cli := standin.Docker(t)
	ctx := t.Context()

	// Running containers disconnected, then the network removed.
	for _, c := range []string{name + "-web", name + "-worker"} {
		if err := cli.NetworkDisconnect(ctx, name, c, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := cli.NetworkRemove(ctx, name); err != nil {
		t.Fatal(err)
	}
	r := w.must(t, dir, "up", "--json")
	if a := actions(t, r.Stdout); a["web"] != "recreated" || a["worker"] != "recreated" {
		t.Fatalf("up after the network was removed: %v", a)
	}
	checkOnNetwork(t, name)

	// Stopped containers, network removed: up used to fail on "network not found" forever.
	for _, c := range []string{name + "-web", name + "-worker"} {
		if err := cli.ContainerStop(ctx, c, container.StopOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := cli.NetworkRemove(ctx, name); err != nil {
		t.Fatal(err)
	}
	w.must(t, dir, "up")
	checkOnNetwork(t, name)
	if a := actions(t, w.must(t, dir, "up", "--json").Stdout); a["web"] != "unchanged" || a["worker"] != "unchanged" {
		t.Errorf("up after the repair is not a no-op: %v", a)
	}
}

func checkOnNetwork(t *testing.T, project string) {
	t.Helper()
	cli := standin.Docker(t)
	n, err := cli.NetworkInspect(t.Context(), project, network.InspectOptions{})
	if err != nil {
		t.Fatalf("the project network is not there: %v", err)
	}
	for _, svc := range []string{"web", "worker"} {
		c := inspect(t, project+"-"+svc)
		ep := c.NetworkSettings.Networks[project]
		if !c.State.Running || ep == nil || ep.NetworkID != n.ID {
			t.Errorf("%s: running %v, networks %v, want on %s (%s)", svc, c.State.Running, c.NetworkSettings.Networks, project, n.ID)
		}
	}
	if b := inspect(t, project+"-web").NetworkSettings.Ports["8080/tcp"]; len(b) == 0 {
		t.Errorf("web publishes no port 8080 after the repair")
	}
}

// TestSymlinkUnderDevenvIsRefused: .devenv/generated/<service> planted as a
// link to a host directory makes up fail before anything is created; devenv
// neither writes there nor mounts it.
func TestSymlinkUnderDevenvIsRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, oneSpark, nil)
	w.must(t, dir, "lock")
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".devenv", "generated"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, ".devenv", "generated", "spark")); err != nil {
		t.Fatal(err)
	}
	r := w.run(t, dir, "up")
	if r.Code != 1 || !strings.Contains(r.Stderr, "symbolic link") || !strings.Contains(r.Stderr, filepath.Join(".devenv", "generated", "spark")) {
		t.Fatalf("up with a linked generated dir: exit %d, want 1 naming the link\n%s", r.Code, r.Stderr)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("devenv wrote through the link: %v", entries)
	}
	if got := projectContainers(t, name); len(got) != 0 {
		t.Errorf("up created %v despite the link", got)
	}
}

// TestVolumeOfAnotherDirectoryIsRefused: a named volume of the project that
// another clone made (labelled with its directory, which still holds its
// .devenv) holds that clone's
// data: up is refused before anything is created (no container, no
// network), and down --volumes does not remove it.
func TestVolumeOfAnotherDirectoryIsRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, `services:
  box:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
    volumes: ["data:/data"]
`, nil)
	w.must(t, dir, "lock")
	cli := standin.Docker(t)
	// the other clone still exists (its .devenv is there): a directory
	// that holds no devenv project any more would be adopted instead
	// (TestFaultMovedProjectIsAdopted)
	elsewhere := filepath.Join(t.TempDir(), "clone-a")
	if err := os.MkdirAll(filepath.Join(elsewhere, ".devenv"), 0o755); err != nil {
		t.Fatal(err)
	}
	vol := name + "_data"
	if _, err := cli.VolumeCreate(t.Context(), volume.CreateOptions{Name: vol,
		Labels: map[string]string{"dev.devenv.project": name, "dev.devenv.dir": elsewhere}}); err != nil {
		t.Fatal(err)
	}
	r := w.run(t, dir, "up")
	if r.Code != 1 || !strings.Contains(r.Stderr, "in use by "+elsewhere) || !strings.Contains(r.Stderr, "volume "+vol) {
		t.Fatalf("up with another directory's volume: exit %d, want 1 naming %s and the volume\n%s", r.Code, elsewhere, r.Stderr)
	}
	if got := projectContainers(t, name); len(got) != 0 {
		t.Errorf("the refused up created %v", got)
	}
	if nets, err := cli.NetworkList(t.Context(), network.ListOptions{Filters: filters.NewArgs(filters.Arg("label", "dev.devenv.project="+name))}); err != nil || len(nets) != 0 {
		t.Errorf("the refused up left networks %v (%v)", nets, err)
	}
	if r := w.run(t, dir, "down", "--volumes"); r.Code != 1 || !strings.Contains(r.Stderr, "in use by "+elsewhere) {
		t.Errorf("down --volumes: exit %d, want 1 naming %s\n%s", r.Code, elsewhere, r.Stderr)
	}
	if _, err := cli.VolumeInspect(t.Context(), vol); err != nil {
		t.Errorf("the other clone's volume is gone: %v", err)
	}
}
