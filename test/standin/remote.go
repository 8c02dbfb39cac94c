package standin

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

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/go-connections/nat"
)

// RemoteBase is the image the remote engine holds for projects to build
// FROM: busybox (Debian's busybox-static) with a passwd, imported there when
// the rig starts (nothing can be pulled).
const RemoteBase = "devenv-rig/busybox:1"

// rigLabel marks the rig's containers on the host engine.
const rigLabel = "devenv-test.remote-engine"

// Remote is a second Docker engine with its own file system: dockerd (Debian
// bookworm's docker.io) inside a container of the host engine, reachable
// only through that container's sshd, published on 127.0.0.1 at a port the
// engine chose, with a key made for this test. A docker context ("rig")
// points at ssh://root@127.0.0.1:PORT in a docker config folder of its own.
type Remote struct {
	Context   string   // the context's name
	ConfigDir string   // DOCKER_CONFIG holding the context
	Host      string   // ssh://root@127.0.0.1:PORT
	Port      int      // the sshd's port on 127.0.0.1
	Env       []string // what a command needs to use the context: DOCKER_CONFIG, DOCKER_CONTEXT, PATH with the ssh wrapper
	SSHConfig string   // ssh -F file: the key, the port, no host key prompts
	container string
}

// rigFiles are the rig image's build context: Debian's docker.io, sshd and
// busybox-static on the Debian stand-in.
func rigFiles() map[string][]byte {
	return map[string][]byte{
		"Dockerfile": []byte("FROM " + DebianRef + "\n" +
			"RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends " +
			"docker.io openssh-server iptables busybox-static && rm -rf /var/lib/apt/lists/*\n" +
			"COPY rig-start.sh /rig-start.sh\n" +
			"ENTRYPOINT [\"/bin/sh\", \"/rig-start.sh\"]\n"),
		"rig-start.sh": []byte(rigStart),
	}
}

// rigStart starts the inner dockerd (vfs: no overlay on the host's overlay),
// imports RemoteBase into it, then runs sshd in the foreground.
const rigStart = `set -e
mkdir -p /root/.ssh /run/sshd
printf '%s\n' "$AUTHORIZED_KEY" >/root/.ssh/authorized_keys
chmod 700 /root/.ssh && chmod 600 /root/.ssh/authorized_keys
ssh-keygen -A >/dev/null
dockerd --storage-driver=vfs >/var/log/dockerd.log 2>&1 &
i=0
until docker info >/dev/null 2>&1; do
  i=$((i+1)); [ $i -lt 600 ] || { echo "rig: dockerd did not start"; tail -20 /var/log/dockerd.log; exit 1; }
  sleep 0.1
done
r=$(mktemp -d)
mkdir -p $r/bin $r/tmp $r/etc $r/root $r/workspace
cp /bin/busybox $r/bin/
for l in $(/bin/busybox --list); do [ "$l" = busybox ] || ln -sf busybox $r/bin/$l; done
echo 'root:x:0:0:root:/root:/bin/sh' >$r/etc/passwd
echo 'root:x:0:' >$r/etc/group
tar -C $r -c . | docker import -c 'CMD ["/bin/sh"]' - ` + RemoteBase + ` >/dev/null
rm -rf $r
echo rig-ready
exec /usr/sbin/sshd -D -e
`

// StartRemote starts a rig for this test and removes it (and its volumes)
// when the test ends, passed or not. The image is built once per content
// (apt-get needs deb.debian.org the first time).
func StartRemote(t testing.TB) *Remote {
	t.Helper()
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh client on PATH: the remote engine rig is reached over ssh")
	}
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("no docker CLI on PATH: the rig's context is made with `docker context create`")
	}
	Debian(t)
	img := standinImage(t, "devenv-standin/remote-engine", rigFiles())
	dir := t.TempDir()
	key := filepath.Join(dir, "id_ed25519")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("rig: ssh-keygen: %v: %s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	r := &Remote{Context: "rig", ConfigDir: filepath.Join(dir, "docker")}
	r.container, r.Port = runRig(t, img, strings.TrimSpace(string(pub)))
	r.Host = "ssh://root@127.0.0.1:" + strconv.Itoa(r.Port)
	r.SSHConfig = filepath.Join(dir, "ssh_config")
	bin := filepath.Join(dir, "bin")
	writeRigClient(t, r, key, bin)
	r.Env = []string{"DOCKER_CONFIG=" + r.ConfigDir, "DOCKER_CONTEXT=" + r.Context, "DOCKER_HOST=",
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	if out, err := r.Docker("context", "create", r.Context, "--docker", "host="+r.Host); err != nil {
		t.Fatalf("rig: docker context create: %v: %s", err, out)
	}
	r.waitReady(t)
	return r
}

// runRig starts the rig's container with sshd published on 127.0.0.1 at a
// port the engine picks, and its engine's data in an anonymous volume.
func runRig(t testing.TB, img, pubKey string) (string, int) {
	t.Helper()
	cli := Docker(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := &container.Config{Image: img, Env: []string{"AUTHORIZED_KEY=" + pubKey},
		Labels: map[string]string{rigLabel: t.Name()}, ExposedPorts: nat.PortSet{"22/tcp": {}}}
	// Everything dockerd needs short of --privileged, which this host's
	// engine cannot grant (its bounding set lacks CAP_SYS_RESOURCE).
	host := &container.HostConfig{
		CapAdd: []string{"ALL"}, CapDrop: []string{"SYS_RESOURCE"},
		SecurityOpt: []string{"seccomp=unconfined", "apparmor=unconfined"},
		MaskedPaths: []string{}, ReadonlyPaths: []string{}, // the CLI's systempaths=unconfined,
		PortBindings: nat.PortMap{"22/tcp": {{HostIP: "127.0.0.1", HostPort: "0"}}},
		Mounts: []mount.Mount{{Type: mount.TypeBind, Source: "/sys/fs/cgroup", Target: "/sys/fs/cgroup"},
			{Type: mount.TypeVolume, Target: "/var/lib/docker"}},
	}
	created, err := cli.ContainerCreate(ctx, cfg, host, nil, nil, "")
	if err != nil {
		t.Fatalf("rig: create: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = cli.ContainerRemove(ctx, created.ID, container.RemoveOptions{Force: true, RemoveVolumes: true})
	})
	if err := cli.ContainerStart(ctx, created.ID, container.StartOptions{}); err != nil {
		t.Fatalf("rig: start: %v", err)
	}
	in, err := cli.ContainerInspect(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	b := in.NetworkSettings.Ports["22/tcp"]
	if len(b) == 0 {
		t.Fatal("rig: sshd's port was not published")
	}
	port, err := strconv.Atoi(b[0].HostPort)
	if err != nil {
		t.Fatal(err)
	}
	return created.ID, port
}

// writeRigClient writes the ssh config (this key, this port, no host key
// prompts) and an ssh wrapper first on PATH that uses it, since ssh reads
// the passwd entry's home, not $HOME: docker's ssh helper and devenv's
// forwards run "ssh" from PATH.
func writeRigClient(t testing.TB, r *Remote, key, bin string) {
	t.Helper()
	cfg := fmt.Sprintf("Host 127.0.0.1\n  User root\n  Port %d\n  IdentityFile %s\n  IdentitiesOnly yes\n"+
		"  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n  BatchMode yes\n", r.Port, key)
	if err := os.WriteFile(r.SSHConfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ssh, _ := exec.LookPath("ssh")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := "#!/bin/sh\nexec " + ssh + " -F " + r.SSHConfig + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
}

// waitReady waits until the engine answers through the context (sshd up,
// dockerd up, the base image imported), or fails with the rig's log.
func (r *Remote) waitReady(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		out, err := r.Docker("image", "inspect", "--format", "{{.Id}}", RemoteBase)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			logs, _ := exec.Command("docker", "logs", "--tail", "30", r.container).CombinedOutput()
			t.Fatalf("rig: the engine did not answer through the context in 3 minutes: %v: %s\nrig log:\n%s", err, out, logs)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Docker runs the docker CLI with the rig's context.
func (r *Remote) Docker(args ...string) (string, error) {
	cmd := exec.Command("docker", args...)
	cmd.Env = append(os.Environ(), r.Env...)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}
