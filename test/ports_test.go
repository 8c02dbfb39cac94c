package e2e

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/go-connections/nat"
)

// holdPortWithContainer runs a container of another (test-owned) project
// publishing 127.0.0.1:port, and returns its name.
func holdPortWithContainer(t *testing.T, port int) string {
	t.Helper()
	name := fmt.Sprintf("e2ehold%d", time.Now().UnixNano()%1e9)
	standin.CleanupProject(t, name)
	cli := standin.Docker(t)
	ctx := t.Context()
	cport := nat.Port("9000/tcp")
	resp, err := cli.ContainerCreate(ctx, &container.Config{Image: standin.Debian(t), Cmd: []string{"sleep", "infinity"},
		Labels: map[string]string{labels.Project: name}, ExposedPorts: nat.PortSet{cport: {}}},
		&container.HostConfig{Init: ptr(true), PortBindings: nat.PortMap{cport: {{HostIP: "127.0.0.1", HostPort: strconv.Itoa(port)}}}},
		nil, nil, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := cli.ContainerStart(ctx, resp.ID, container.StartOptions{}); err != nil {
		t.Fatal(err)
	}
	return name
}

func ptr[T any](v T) *T { return &v }

// holdPortWithProgram starts a program outside Docker (python3) listening
// on 127.0.0.1:port, waits until it listens, and returns its pid and comm
// (what /proc names it); it is killed at the end of the test, or by stop.
func holdPortWithProgram(t *testing.T, port int) (pid int, comm string, stop func()) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: no program outside Docker to hold the port")
	}
	cmd := exec.Command(py, "-c", `import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()
print("listening", flush=True)
sys.stdin.read()`, strconv.Itoa(port))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop = func() { _ = stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() }
	t.Cleanup(stop)
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "listening\n" {
		t.Fatalf("the port holder did not start listening: %q, %v", line, err)
	}
	c, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", cmd.Process.Pid))
	if err != nil {
		t.Skipf("cannot read the holder's /proc entry (%v): devenv cannot name it either", err)
	}
	return cmd.Process.Pid, strings.TrimSpace(string(c)), stop
}

// TestUpChecksPortsBeforeBuilding: a host port held by another project's
// container and one held by a program outside Docker stop `up` before it
// pulls, builds or creates anything; the error names the container and the
// program (its name and pid, read from /proc), says which file to change
// and suggests a free port. Once the ports are free, up runs.
func TestUpChecksPortsBeforeBuilding(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	byContainer, byProgram := freePort(t), freePort(t)
	holder := holdPortWithContainer(t, byContainer)
	pid, comm, stopProgram := holdPortWithProgram(t, byProgram)
	files := map[string]string{"compose.yaml": fmt.Sprintf(`services:
  box:
    image: nvcr.io/%s
    command: ["sleep", "infinity"]
    ports: ["%d:9000"]
`, plainBase, byContainer)}
	dir, name := w.project(t, fmt.Sprintf(`compose: [compose.yaml]
services:
  shell:
    profile: image
    image: nvcr.io/%s
    command: ["sleep", "infinity"]
    ports: ["%d:8000"]
`, plainBase, byProgram), files)
	w.must(t, dir, "lock")
	r := w.run(t, dir, "up")
	if r.Code != 1 {
		t.Fatalf("up with both ports taken: exit %d, want 1\nstderr:\n%s", r.Code, r.Stderr)
	}
	for _, want := range []string{
		"service box: host port 127.0.0.1:" + strconv.Itoa(byContainer) + " is in use by container " + holder,
		"docker stop " + holder, "in compose.yaml",
		"service shell: host port 127.0.0.1:" + strconv.Itoa(byProgram) + fmt.Sprintf(" is in use by program %s (pid %d); stop it", comm, pid),
		"in devenv.yaml", "is free)", "nothing was built or created",
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("up's error lacks %q:\n%s", want, r.Stderr)
		}
	}
	if left := projectContainers(t, name); len(left) != 0 {
		t.Errorf("up failed on ports but left containers behind: %v", left)
	}
	stopProgram()
	if err := standin.Docker(t).ContainerRemove(t.Context(), holder, container.RemoveOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	w.must(t, dir, "up")
	if c := inspect(t, name+"-box"); !c.State.Running {
		t.Errorf("box is %s after the port was freed", c.State.Status)
	}
}

// TestStartChecksPorts: start (like up) refuses a container whose host port
// a program took while it was stopped, naming the port, the file to change
// and a free port, and starts nothing; restart of running services is not
// refused over the ports they hold themselves.
func TestStartChecksPorts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	port := freePort(t)
	dir, name := w.project(t, fmt.Sprintf(`services:
  shell:
    profile: image
    image: nvcr.io/%s
    command: ["sleep", "infinity"]
    ports: ["%d:8000"]
`, plainBase, port), nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "up")
	w.must(t, dir, "restart")
	w.must(t, dir, "stop")
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	r := w.run(t, dir, "start")
	if r.Code != 1 {
		t.Fatalf("start with its port taken: exit %d, want 1\nstderr:\n%s", r.Code, r.Stderr)
	}
	// the listener is this test's own process, which devenv (its child) can read in /proc
	for _, want := range []string{"service shell: host port 127.0.0.1:" + strconv.Itoa(port) + " is in use by program ",
		fmt.Sprintf("(pid %d)", os.Getpid()),
		"in devenv.yaml", "is free)", "nothing was started"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("start's error lacks %q:\n%s", want, r.Stderr)
		}
	}
	if c := inspect(t, name+"-shell"); c.State.Running {
		t.Error("start refused on its port but started the container")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	w.must(t, dir, "start")
	if c := inspect(t, name+"-shell"); !c.State.Running {
		t.Errorf("shell is %s after the port was freed", c.State.Status)
	}
}
