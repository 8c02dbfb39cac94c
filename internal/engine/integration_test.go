package engine_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/docker/api"
	"github.com/docker/docker/api/types/versions"
)

func TestIntegrationConnectNegotiatesAPIVersion(t *testing.T) {
	e := connect(t)
	info, err := e.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := api.DefaultVersion
	if versions.LessThan(info.EngineAPI, want) {
		want = info.EngineAPI
	}
	if info.APIVersion != want {
		t.Errorf("negotiated API %q, want %q (engine speaks %q, client up to %q)", info.APIVersion, want, info.EngineAPI, api.DefaultVersion)
	}
	if info.ServerVersion == "" || info.NCPU < 1 || info.MemTotal <= 0 || info.DockerRootDir == "" || info.DefaultRuntime == "" {
		t.Errorf("Info lacks basic facts: %+v", info)
	}
	if !slices.Contains(info.Runtimes, info.DefaultRuntime) {
		t.Errorf("default runtime %q is not among the runtimes %v", info.DefaultRuntime, info.Runtimes)
	}
	t.Logf("engine %s, API %s negotiated (engine speaks %s)", info.ServerVersion, info.APIVersion, info.EngineAPI)
}

func TestIntegrationConnectClosedSocket(t *testing.T) {
	skipShort(t)
	sock := filepath.Join(t.TempDir(), "closed.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DOCKER_HOST", "unix://"+sock)
	e, err := engine.Connect(t.Context())
	if err == nil {
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		t.Fatal("Connect to a closed socket succeeded")
	}
	if !errors.Is(err, engine.ErrUnreachable) {
		t.Errorf("error %v is not ErrUnreachable", err)
	}
	for _, want := range []string{sock, "DOCKER_HOST", "docker group"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
}

// TestIntegrationLifecycle drives a stand-in service through build, create,
// start, health, logs, exec, list and remove on the real engine.
func TestIntegrationLifecycle(t *testing.T) {
	ctx := t.Context()
	e := connect(t)
	run := newRunID(t)
	labels := map[string]string{runLabel: run}
	cleanupRun(t, e, labels)

	var events []engine.Progress
	imageRef := "devenv-enginetest/standin:" + run
	imageID, err := e.Build(ctx, engine.BuildRequest{Context: standinContext(t), Tags: []string{imageRef}, Labels: labels},
		func(p engine.Progress) { events = append(events, p) })
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if !strings.HasPrefix(imageID, "sha256:") || len(events) == 0 {
		t.Errorf("Build returned id %q after %d progress events", imageID, len(events))
	}
	if ok, err := e.ImageExists(ctx, imageRef); err != nil || !ok {
		t.Fatalf("ImageExists(%q) = %v, %v after the build", imageRef, ok, err)
	}

	netName, volName := "devenv-enginetest-"+run, "devenv-enginetest-"+run
	netObj, err := e.EnsureNetwork(ctx, netName, labels)
	netID := netObj.ID
	if err != nil {
		t.Fatal(err)
	}
	if again, err := e.EnsureNetwork(ctx, netName, labels); err != nil || again.ID != netID {
		t.Errorf("EnsureNetwork again = %q, %v; want %q", again.ID, err, netID)
	}
	for range 2 {
		v, err := e.EnsureVolume(ctx, volName, labels)
		if err != nil {
			t.Fatal(err)
		}
		if v.Name != volName || v.Labels[runLabel] != run {
			t.Errorf("EnsureVolume = %+v, want %s with its labels", v, volName)
		}
	}

	dataDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dataDir, "greeting.txt"), []byte("from the host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := func(name string) engine.ContainerSpec {
		return engine.ContainerSpec{
			Name: "devenv-enginetest-" + run + "-" + name, Image: imageRef, Labels: labels,
			Env:   []string{"DEVENV_TEST=" + run},
			Cmd:   []string{"serve", ":8080"},
			Ports: []engine.PortBinding{{HostIP: "127.0.0.1", ContainerPort: 8080}},
			Mounts: []engine.Mount{
				{Type: engine.MountBind, Source: dataDir, Target: "/data", ReadOnly: true},
				{Type: engine.MountVolume, Source: volName, Target: "/cache"},
			},
			Network: netName, Aliases: []string{name},
			Healthcheck: &engine.Healthcheck{Test: []string{"CMD", "/app", "health", "127.0.0.1:8080"},
				Interval: 200 * time.Millisecond, Timeout: time.Second, Retries: 3},
			Init: true,
		}
	}

	t.Run("GPU request without GPU runtime", func(t *testing.T) {
		spec := base("gpu")
		spec.GPU = &engine.GPURequest{All: true, Capabilities: []string{"compute", "utility"}}
		checkGPUContainer(t, e, spec)
	})

	spec := base("plain")
	id, err := e.Create(ctx, spec)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if _, err := e.Create(ctx, spec); !errors.Is(err, engine.ErrConflict) {
		t.Errorf("creating %q twice: got %v, want ErrConflict", spec.Name, err)
	}
	if err := e.Start(ctx, id); err != nil {
		t.Fatalf("Start: %v", err)
	}
	st := waitHealthy(t, e, id)

	t.Run("inspect", func(t *testing.T) { checkInspect(t, st, spec) })
	t.Run("published port", func(t *testing.T) { checkPort(t, st) })
	t.Run("logs", func(t *testing.T) { checkLogs(t, e, id) })
	t.Run("exec", func(t *testing.T) { checkExec(t, e, id, run) })
	t.Run("exec ends with its context", func(t *testing.T) { checkExecEnds(t, e, id) })
	t.Run("list by label", func(t *testing.T) { checkList(t, e, labels, run, spec, netName, volName, imageRef) })
	t.Run("listing says what inspect says", func(t *testing.T) { checkListedAsInspected(t, e, labels, st) })

	if err := e.Stop(ctx, id, 5*time.Second); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if st, err := e.Inspect(ctx, id); err != nil || st.Running || st.ExitCode != 0 {
		t.Errorf("after Stop: running %v, exit code %d, err %v; want stopped with code 0", st.Running, st.ExitCode, err)
	}
	t.Run("remove", func(t *testing.T) { checkRemove(t, e, labels) })
}

// checkGPUContainer: Create keeps the device request as given; Start fails
// with ErrNoGPURuntime on an engine without the NVIDIA toolkit.
func checkGPUContainer(t *testing.T, e engine.Engine, spec engine.ContainerSpec) {
	ctx := t.Context()
	id, err := e.Create(ctx, spec)
	if err != nil {
		t.Fatalf("Create with a GPU request: %v", err)
	}
	st, err := e.Inspect(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := engine.GPUDeviceRequests(spec.GPU)
	want[0].Options = map[string]string{} // the engine stores an empty map
	got := st.DeviceRequests
	if len(got) == 1 && got[0].Options == nil {
		got[0].Options = map[string]string{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("engine stored device requests %+v, want %+v", got, want)
	}
	info, err := e.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = e.Start(ctx, id)
	if info.NvidiaRuntime {
		t.Skipf("this engine has an nvidia runtime; Start gave %v", err)
	}
	if !errors.Is(err, engine.ErrNoGPURuntime) {
		t.Fatalf("Start without a GPU runtime: got %v, want ErrNoGPURuntime", err)
	}
	if !strings.Contains(err.Error(), "nvidia-ctk runtime configure --runtime=docker") {
		t.Errorf("the error does not say how to fix it:\n%v", err)
	}
}

func checkInspect(t *testing.T, st engine.ContainerState, spec engine.ContainerSpec) {
	if st.Name != spec.Name || st.Image != spec.Image || !st.Running || st.Status != "running" {
		t.Errorf("state %+v does not match spec %s", st, spec.Name)
	}
	if st.Labels[runLabel] != spec.Labels[runLabel] {
		t.Errorf("labels %v lack %v", st.Labels, spec.Labels)
	}
	if !slices.Contains(st.Env, spec.Env[0]) {
		t.Errorf("env %v lacks %q", st.Env, spec.Env[0])
	}
	if len(st.DeviceRequests) != 0 {
		t.Errorf("container without GPUs has device requests %+v", st.DeviceRequests)
	}
	if !slices.Contains(st.Networks, spec.Network) {
		t.Errorf("networks %v lack %q", st.Networks, spec.Network)
	}
	mounts := map[string]engine.Mount{}
	for _, m := range st.Mounts {
		mounts[m.Target] = m
	}
	for _, m := range spec.Mounts {
		if got := mounts[m.Target]; got != m {
			t.Errorf("mount at %s = %+v, want %+v", m.Target, got, m)
		}
	}
}

func checkPort(t *testing.T, st engine.ContainerState) {
	if len(st.Ports) != 1 || st.Ports[0].HostIP != "127.0.0.1" || st.Ports[0].HostPort == 0 || st.Ports[0].ContainerPort != 8080 {
		t.Fatalf("published ports %+v, want 8080/tcp on 127.0.0.1 at a port the engine chose", st.Ports)
	}
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", st.Ports[0].HostPort), 5*time.Second)
	if err != nil {
		t.Fatalf("dialing the published port: %v", err)
	}
	defer func() { _ = c.Close() }()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, _ := io.ReadAll(c)
	if string(b) != "hello from standin\n" {
		t.Errorf("published port answered %q", b)
	}
}

func checkLogs(t *testing.T, e engine.Engine, id string) {
	var stdout, stderr bytes.Buffer
	if err := e.Logs(t.Context(), id, engine.LogOptions{Tail: "all"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != "standin ready on :8080\n" || stderr.String() != "standin stderr line\n" {
		t.Errorf("logs not split by stream: stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}

func checkExec(t *testing.T, e engine.Engine, id, run string) {
	tests := []struct {
		cmd      []string
		tty      bool
		stdin    string
		wantCode int
		wantOut  string
	}{
		{cmd: []string{"/app", "cat", "/data/greeting.txt"}, wantOut: "from the host\n"},
		{cmd: []string{"/app", "env", "DEVENV_TEST"}, wantOut: run + "\n"},
		{cmd: []string{"/app", "exit", "3"}, wantCode: 3},
		{cmd: []string{"/app", "echo", "on", "a", "tty"}, tty: true, wantOut: "on a tty\r\n"},
		{cmd: []string{"/app", "cat", "/nonexistent"}, wantCode: 1},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.cmd[1:], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code, err := e.Exec(t.Context(), id, engine.ExecOptions{Cmd: tt.cmd, TTY: tt.tty, Stdout: &stdout, Stderr: &stderr})
			if err != nil {
				t.Fatal(err)
			}
			if code != tt.wantCode || stdout.String() != tt.wantOut {
				t.Errorf("exit code %d, stdout %q (stderr %q); want %d, %q", code, stdout.String(), stderr.String(), tt.wantCode, tt.wantOut)
			}
		})
	}
}

// checkExecEnds: an exec that would run forever ends when its context does
// (Ctrl-C without a TTY), and a detached one returns at once.
func checkExecEnds(t *testing.T, e engine.Engine, id string) {
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.Exec(ctx, id, engine.ExecOptions{Cmd: []string{"/app", "serve", ":9191"}, Stdout: io.Discard})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
		t.Errorf("exec past its context: %v after %s", err, time.Since(start))
	}
	code, err := e.Exec(t.Context(), id, engine.ExecOptions{Cmd: []string{"/app", "serve", ":9192"}, Detach: true})
	if err != nil || code != 0 {
		t.Errorf("detached exec: %d, %v", code, err)
	}
}

// checkList makes a container under another label value and checks that
// List returns only this run's objects.
func checkList(t *testing.T, e engine.Engine, labels map[string]string, run string, spec engine.ContainerSpec, netName, volName, imageRef string) {
	ctx := t.Context()
	other := map[string]string{runLabel: run + "-other"}
	cleanupRun(t, e, other)
	stranger := engine.ContainerSpec{Name: "devenv-enginetest-" + run + "-other", Image: imageRef, Labels: other, Cmd: []string{"exit", "0"}}
	if _, err := e.Create(ctx, stranger); err != nil {
		t.Fatal(err)
	}
	want := map[engine.Kind][]string{
		engine.Containers: {"devenv-enginetest-" + run + "-gpu", spec.Name},
		engine.Networks:   {netName},
		engine.Volumes:    {volName},
		engine.Images:     {imageRef},
	}
	for kind, names := range want {
		objs, err := e.List(ctx, kind, labels)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range objs {
			got = append(got, o.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, names) {
			t.Errorf("List(%s, %v) = %v, want %v", kind, labels, got, names)
		}
	}
}

// checkListedAsInspected: the listing reports a running container's
// published ports and its networks' ids as inspect does (up and the port
// preflight read them from the listing instead of inspecting each one).
func checkListedAsInspected(t *testing.T, e engine.Engine, labels map[string]string, st engine.ContainerState) {
	objs, err := e.List(t.Context(), engine.Containers, labels)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if o.ID != st.ID {
			continue
		}
		if !maps.Equal(o.NetworkIDs, st.NetworkIDs) || len(o.NetworkIDs) == 0 {
			t.Errorf("listed network ids %v, inspect says %v", o.NetworkIDs, st.NetworkIDs)
		}
		if len(o.Ports) == 0 || !slices.ContainsFunc(st.Ports, func(p engine.PortBinding) bool { return p == o.Ports[0] }) {
			t.Errorf("listed ports %+v, inspect says %+v", o.Ports, st.Ports)
		}
		return
	}
	t.Fatalf("container %s is not listed", st.ID)
}

// checkRemove removes every object of the run and checks nothing is left.
func checkRemove(t *testing.T, e engine.Engine, labels map[string]string) {
	ctx := t.Context()
	for _, kind := range []engine.Kind{engine.Containers, engine.Networks, engine.Volumes, engine.Images} {
		objs, err := e.List(ctx, kind, labels)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			if err := e.Remove(ctx, kind, o.ID, true); err != nil {
				t.Errorf("Remove(%s %s): %v", kind, o.Name, err)
			}
		}
		if left, err := e.List(ctx, kind, labels); err != nil || len(left) != 0 {
			t.Errorf("after removing, %d %ss are left (%v)", len(left), kind, err)
		}
		if len(objs) > 0 {
			if err := e.Remove(ctx, kind, objs[0].ID, false); !errors.Is(err, engine.ErrNotFound) {
				t.Errorf("removing %s %s twice: got %v, want ErrNotFound", kind, objs[0].Name, err)
			}
		}
	}
}
