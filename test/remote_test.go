package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestRemoteRigAnswers: the rig's engine is another engine (its own images,
// its own containers), reached through the docker context over ssh only.
func TestRemoteRigAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: needs the Docker engine")
	}
	r := standin.StartRemote(t)
	out, err := r.Docker("info", "--format", "{{.Name}} {{.Driver}} {{.Images}}")
	if err != nil {
		t.Fatalf("docker info through the context: %v: %s", err, out)
	}
	if !strings.Contains(out, "vfs") {
		t.Errorf("the context reached %q, not the rig's vfs engine", out)
	}
	t.Logf("rig at %s: %s", r.Host, out)
}

// remoteProject writes a project of image services built FROM the rig's
// base image; nothing of it exists on the rig's machine.
func remoteProject(t *testing.T, svcs string, files map[string]string) (dir, name string) {
	t.Helper()
	name = fmt.Sprintf("rem%d", time.Now().UnixNano()%1e9)
	all := map[string]string{"devenv.yaml": "name: " + name + "\nservices:\n" + svcs, "Dockerfile": "FROM " + standin.RemoteBase + "\n"}
	for k, v := range files {
		all[k] = v
	}
	return standin.Project(t, all), name
}

func TestRemoteUpThroughContext(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: needs the Docker engine")
	}
	r := standin.StartRemote(t)
	env := append([]string{"DEVENV_CACHE=" + t.TempDir(), "NO_COLOR=1"}, r.Env...)
	dir, name := remoteProject(t, "  web:\n    profile: image\n    build: Dockerfile\n    command: [\"sleep\", \"3600\"]\n", nil)
	run := func(args ...string) standin.Result {
		t.Helper()
		res := standin.Run(t, dir, env, args...)
		if res.Code != 0 {
			t.Fatalf("devenv %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.Code, res.Stdout, res.Stderr)
		}
		return res
	}
	run("lock")
	run("up")
	out, err := r.Docker("ps", "--format", "{{.Names}}")
	if all, _ := r.Docker("ps", "-a", "--format", "{{.Names}} {{.Status}}"); !strings.Contains(out, name) {
		logs, _ := r.Docker("logs", name+"-web")
		t.Logf("rig containers: %s; logs: %s", all, logs)
	}
	if err != nil || !strings.Contains(out, name+"-web") {
		t.Fatalf("the rig's engine runs %q (%v), want %s-web", out, err, name)
	}
	if local, _ := exec.Command("docker", "ps", "-q", "--filter", "name="+name).Output(); len(local) != 0 {
		t.Errorf("the container runs on this machine's engine too: %s", local)
	}
	doc := standin.Run(t, dir, env, "doctor")
	if !strings.Contains(doc.Stdout+doc.Stderr, `context "rig"`) {
		t.Errorf("doctor does not name the context:\n%s%s", doc.Stdout, doc.Stderr)
	}
	run("down")
}
