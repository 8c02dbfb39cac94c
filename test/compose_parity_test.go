package e2e

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
)

// TestBuildAsComposeSendsIt: a compose build whose Dockerfile lies
// outside its context, and whose context holds a FIFO and a socket, is
// built as docker build and Compose's classic build send it: the
// Dockerfile read by the engine and left out of what COPY sees, the FIFO
// copied, the socket skipped. It was planned without its build ("its
// image  is local"). The container and the image carry Compose's own
// labels as Compose writes them.
func TestBuildAsComposeSendsIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, "compose: [compose.yaml]\n", map[string]string{
		"compose.yaml":          "services:\n  app:\n    build:\n      context: ./app\n      dockerfile: ../docker/app.Dockerfile\n      labels: {org.example.team: data}\n",
		"docker/app.Dockerfile": "FROM nvcr.io/" + plainBase + "\nCOPY . /src\nCMD [\"sleep\", \"infinity\"]\n",
		"app/main.txt":          "hello\n",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "app", "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	staleSocket(t, filepath.Join(dir, "app", "s.sock"))
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")
	got := strings.Fields(w.must(t, dir, "exec", "app", "find", "/src", "-mindepth", "1", "-printf", "%y:%P\n").Stdout)
	if strings.Join(got, " ") != "f:main.txt p:pipe" && strings.Join(got, " ") != "p:pipe f:main.txt" {
		t.Errorf("/src holds %v, want main.txt and the FIFO (no socket, no Dockerfile, no .dockerignore)", got)
	}
	version := composeModuleVersion(t)
	ctr := inspect(t, name+"-app")
	for k, v := range map[string]string{labels.ComposeVersion: version, labels.ComposeConfigFiles: filepath.Join(dir, "compose.yaml"),
		labels.ComposeWorkingDir: dir, labels.ComposeProject: name, labels.ComposeService: "app"} {
		if ctr.Config.Labels[k] != v {
			t.Errorf("container label %s = %q, want %q", k, ctr.Config.Labels[k], v)
		}
	}
	img, err := standin.Docker(t).ImageInspect(t.Context(), ctr.Image)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{labels.ComposeImageBuilder: "classic", labels.ComposeVersion: version, labels.ComposeProject: name,
		labels.ComposeService: "app", "org.example.team": "data"} {
		if img.Config.Labels[k] != v {
			t.Errorf("image label %s = %q, want %q", k, img.Config.Labels[k], v)
		}
	}
	if r := w.must(t, dir, "up"); strings.Contains(r.Stdout+r.Stderr, "building") {
		t.Errorf("a second up built again:\n%s", r.Stderr)
	}
}

// TestFailedStartIsKept: a container that cannot start (its command is
// not in the image) is kept after the failed up, as Compose keeps it, so
// that devenv logs and docker inspect can read it, and the error says so;
// the next up, the command fixed, makes it again and starts it.
func TestFailedStartIsKept(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	side := func(cmd string) string {
		return "services:\n  side:\n    image: nvcr.io/" + plainBase + "\n    command: [" + cmd + "]\n"
	}
	dir, name := w.project(t, "compose: [compose.yaml]\n", map[string]string{"compose.yaml": side(`"/no/such/binary"`)})
	w.must(t, dir, "lock")
	r := w.run(t, dir, "up")
	if r.Code == 0 || !strings.Contains(r.Stderr, "devenv logs side") {
		t.Fatalf("up with a command that is not in the image: exit %d, want a failure saying `devenv logs side`\nstderr:\n%s", r.Code, r.Stderr)
	}
	if st := inspect(t, name+"-side").State; st.Status != "created" {
		t.Errorf("the container that could not start is %s, want it kept as created", st.Status)
	}
	w.must(t, dir, "logs", "side")
	writeFile(t, dir, "compose.yaml", side(`"sleep", "infinity"`))
	w.must(t, dir, "up", "--wait")
	if st := inspect(t, name+"-side").State; !st.Running {
		t.Errorf("after the fix, side is %s, want running", st.Status)
	}
}

// staleSocket leaves a unix socket file at path, as a process that did
// not remove its socket does.
func staleSocket(t *testing.T, path string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatalf("a socket at %s: %v", path, err)
	}
	ul := l.(*net.UnixListener)
	ul.SetUnlinkOnClose(false)
	if err := ul.Close(); err != nil {
		t.Fatal(err)
	}
}

// composeModuleVersion is the version of the Compose module go.mod
// requires as Compose writes its own ("5.6.0").
func composeModuleVersion(t *testing.T) string {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "github.com/docker/compose/v5" {
			v := strings.TrimPrefix(f[1], "v")
			if i := strings.IndexAny(v, "-+"); i >= 0 {
				v = v[:i]
			}
			return v
		}
	}
	t.Fatal("go.mod requires no github.com/docker/compose/v5")
	return ""
}
