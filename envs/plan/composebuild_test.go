package plan

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
)

// TestComposeBuildIsKept: a compose service keeps its build, and runs the
// image devenv builds for it, wherever Compose allows its Dockerfile
// (outside the context, by an absolute path) and whatever its context
// holds (a FIFO, a socket: docker build sends the one and skips the
// other). The plan lost the build, and up then said "its image  is local
// (pinned in devenv.lock by image ID)", with no name.
func TestComposeBuildIsKept(t *testing.T) {
	tests := []struct {
		name  string
		build func(dir string) string // compose's build: value
		setup func(t *testing.T, dir string)
	}{
		{"Dockerfile outside the context", func(string) string { return "{context: ./app, dockerfile: ../docker/app.Dockerfile}" }, nil},
		{"absolute Dockerfile outside the context", func(dir string) string {
			return "{context: ./app, dockerfile: " + filepath.Join(dir, "docker", "app.Dockerfile") + "}"
		}, nil},
		{"absolute Dockerfile in the context", func(dir string) string {
			return "{context: ./app, dockerfile: " + filepath.Join(dir, "app", "Dockerfile") + "}"
		}, nil},
		{"a FIFO in the context", func(string) string { return "./app" }, func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "app", "pipe"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"a socket in the context", func(string) string { return "./app" }, func(t *testing.T, dir string) {
			l, err := net.Listen("unix", filepath.Join(dir, "app", "s.sock"))
			if err != nil {
				t.Skipf("no unix socket here: %v", err)
			}
			t.Cleanup(func() { _ = l.Close() })
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"app/Dockerfile":        "FROM scratch\nCOPY . /src\n",
				"app/main.txt":          "hello\n",
				"docker/app.Dockerfile": "FROM scratch\nCOPY main.txt /main.txt\n",
				"compose.yaml":          "services:\n  app:\n    build: " + tt.build(dir) + "\n",
			}
			for name, text := range files {
				writeFile(t, filepath.Join(dir, name), text)
			}
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			pl := planSmall(t, composeProject(t, dir), &lock.File{})
			s := pl.Service("app")
			if s.Build == nil || !strings.HasPrefix(s.Image, "devenv/demo-app:") || s.Pull != "" {
				t.Fatalf("app: build %v, image %q, pull %q; want devenv's build and its tag", s.Build != nil, s.Image, s.Pull)
			}
			if s.BuildErr != nil {
				t.Errorf("app cannot be built: %v", s.BuildErr)
			}
		})
	}
}

// TestComposeBuildThatCannotBeReadSaysWhy: a build devenv cannot send (its
// Dockerfile is missing, a device file is in its context) still plans,
// as Compose's config does, and up says why, naming the compose file
// and the path; it never loses the build.
func TestComposeBuildThatCannotBeReadSaysWhy(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "compose.yaml"), "services:\n  app:\n    build: {context: ./app, dockerfile: missing.Dockerfile}\n")
	writeFile(t, filepath.Join(dir, "app", "main.txt"), "hello\n")
	pl := planSmall(t, composeProject(t, dir), &lock.File{})
	s := pl.Service("app")
	if s.Build == nil || !strings.HasPrefix(s.Image, "devenv/demo-app:") {
		t.Fatalf("app: build %v, image %q; want devenv's build kept", s.Build != nil, s.Image)
	}
	if s.BuildErr == nil || !strings.Contains(s.BuildErr.Error(), "compose.yaml") || !strings.Contains(s.BuildErr.Error(), "missing.Dockerfile") {
		t.Errorf("BuildErr = %v, want the compose file and the Dockerfile named", s.BuildErr)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
