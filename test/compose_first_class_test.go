package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
)

// localImage tags the stand-in Debian image under a name no registry has,
// as a user's own `docker build -t` would, and removes the tag at cleanup.
func localImage(t *testing.T) string {
	t.Helper()
	ref := fmt.Sprintf("e2elocal%d/tool:dev", time.Now().UnixNano()%1e9)
	cli := standin.Docker(t)
	if err := cli.ImageTag(t.Context(), standin.Debian(t), ref); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = cli.ImageRemove(context.WithoutCancel(t.Context()), ref, image.RemoveOptions{}) }) // t.Context() ends before cleanups
	return ref
}

// TestComposeServicesFirstClass: a compose service whose image exists only
// on this machine is locked by its image ID (lock says so) and runs; logs
// without names shows compose services; a profile's service starts only
// with --profile; a compose warning is printed once per change of the
// compose file, not on every up; devenv stop runs the pre_stop hook and
// waits the stop_grace_period, as docker compose stop does (-t 0 kills at
// once); start runs the post_start hook; down --volumes takes the
// anonymous volumes.
func TestComposeServicesFirstClass(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	local := localImage(t)
	// container_name is taken as written (compose's name, not <project>-<service>)
	toolName := fmt.Sprintf("devenv-e2e-toolbox-%d", time.Now().UnixNano())
	composeFile := func(extraKey, hostAt string) string {
		return `services:
  tool:
    image: ` + local + `
    pull_policy: never
    command: ["sh", "-c", "echo hello-from-tool; exec sleep infinity"]
    stop_signal: SIGINT
    stop_grace_period: 3s
    cap_add: [NET_ADMIN]
    post_start: [{command: ["sh", "-c", "echo started > /tmp/post-start"]}]
    volumes: ["/scratch", "./out:/out", "/:` + hostAt + `:ro"]
    container_name: ` + toolName + `
    restart: unless-stopped
    ulimits: {nofile: {soft: 4096, hard: 8192}}
    extra_hosts: ["host.docker.internal:host-gateway"]
    expose: ["7000"]
` + extraKey + `  extra:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    profiles: [debug]
`
	}
	dir, name := w.project(t, `compose: [compose.yaml]
services:
  shell:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
`, map[string]string{"compose.yaml": composeFile("", "/host"), "out/.keep": ""})

	r := w.must(t, dir, "lock")
	if !strings.Contains(r.Stderr+r.Stdout, "pinned by its local image ID sha256:") {
		t.Errorf("lock does not say tool is pinned by its local image ID:\nstdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
	lockText := readFile(t, dir+"/devenv.lock")
	if !strings.Contains(lockText, `"local": true`) {
		t.Errorf("devenv.lock does not mark tool's image as local:\n%s", lockText)
	}

	const bindWarning = "binds the host's whole filesystem"
	r = w.must(t, dir, "up", "--wait")
	if !strings.Contains(r.Stderr, bindWarning) {
		t.Errorf("first up does not warn about the bind of /:\n%s", r.Stderr)
	}
	img, err := standin.Docker(t).ImageInspect(t.Context(), local)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lockText, `"digest": "`+img.ID+`"`) {
		t.Errorf("devenv.lock does not pin tool by the local image ID %s:\n%s", img.ID, lockText)
	}
	tool := inspect(t, toolName)
	if !tool.State.Running || tool.Config.Image != img.ID {
		t.Fatalf("tool: running %v, image %q; want it running the locked image ID %s", tool.State.Running, tool.Config.Image, img.ID)
	}
	// restart, ulimits, extra_hosts and expose apply as `docker compose up` applies them
	if hc := tool.HostConfig; hc.RestartPolicy.Name != "unless-stopped" || len(hc.Ulimits) != 1 || hc.Ulimits[0].Soft != 4096 ||
		len(hc.ExtraHosts) != 1 || hc.ExtraHosts[0] != "host.docker.internal:host-gateway" {
		t.Errorf("tool: restart %+v, ulimits %v, extra hosts %v; want unless-stopped, nofile 4096/8192, host.docker.internal:host-gateway",
			hc.RestartPolicy, hc.Ulimits, hc.ExtraHosts)
	}
	// keys the Compose SDK applies from compose-go's own value of the service
	if hc := tool.HostConfig; tool.Config.StopSignal != "SIGINT" || len(hc.CapAdd) != 1 || strings.TrimPrefix(hc.CapAdd[0], "CAP_") != "NET_ADMIN" || !hasMountAt(tool.Mounts, "/scratch") {
		t.Errorf("tool: stop signal %q, cap_add %v, mounts %+v; want SIGINT, [NET_ADMIN] and an anonymous volume at /scratch", tool.Config.StopSignal, hc.CapAdd, tool.Mounts)
	}
	if r := w.must(t, dir, "exec", "tool", "cat", "/tmp/post-start"); strings.TrimSpace(r.Stdout) != "started" {
		t.Errorf("the post_start hook did not run: /tmp/post-start is %q", r.Stdout)
	}
	if _, ok := tool.Config.ExposedPorts["7000/tcp"]; !ok {
		t.Errorf("tool: exposed ports %v, want 7000/tcp", tool.Config.ExposedPorts)
	}
	if _, err := standin.Docker(t).ContainerInspect(t.Context(), name+"-extra"); err == nil {
		t.Error("extra (profile debug) started without --profile")
	}

	r = w.must(t, dir, "up")
	if strings.Contains(r.Stderr, bindWarning) {
		t.Errorf("second up repeats the unchanged compose warning:\n%s", r.Stderr)
	}
	if strings.Contains(r.Stderr, "works differently") {
		t.Errorf("up warns about a key Compose runs:\n%s", r.Stderr)
	}

	if r := w.must(t, dir, "logs"); !strings.Contains(r.Stdout, "hello-from-tool") {
		t.Errorf("logs without names leaves out the compose service:\n%s", r.Stdout)
	}
	if r := w.must(t, dir, "exec", "tool", "hostname"); strings.TrimSpace(r.Stdout) == "" {
		t.Errorf("exec in the service with a container_name printed nothing:\n%s", r.Stderr)
	}

	writeFile(t, dir, "compose.yaml", composeFile("    pre_stop: [{command: [\"sh\", \"-c\", \"date +%s.%N > /out/pre-stop\"]}]\n", "/hostfs"))
	w.must(t, dir, "lock")
	r = w.must(t, dir, "--profile", "debug", "up")
	if !strings.Contains(r.Stderr, bindWarning) || strings.Contains(r.Stderr, "works differently") {
		t.Errorf("up after a compose change does not print the changed warnings (and only those):\n%s", r.Stderr)
	}
	if c := inspect(t, name+"-extra"); !c.State.Running {
		t.Errorf("extra is %s with --profile debug", c.State.Status)
	}
	stopRunsPreStop(t, w, dir, toolName)
	startRunsPostStartAndDownTakesAnonymousVolumes(t, w, dir, toolName)
}

// stopRunsPreStop: devenv stop runs the service's pre_stop hook (it
// writes the time into the bind-mounted out/) and then gives the
// container its stop_grace_period (3s; its SIGINT is ignored by sleep as
// PID 1), not -t's default of 10s, before it is killed.
func stopRunsPreStop(t *testing.T, w *world, dir, container string) {
	t.Helper()
	w.must(t, dir, "stop", "tool")
	if waited := killedAfterPreStop(t, dir, container); waited < 2500*time.Millisecond || waited > 8*time.Second {
		t.Errorf("tool was killed %v after its pre_stop hook, want its stop_grace_period of 3s", waited)
	}
}

func hasMountAt(ms []container.MountPoint, target string) bool {
	for _, m := range ms {
		if m.Destination == target {
			return true
		}
	}
	return false
}
