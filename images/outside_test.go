package images

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// tarEngine keeps the last build's request and the context's headers and contents.
type tarEngine struct {
	engine.Engine
	req     engine.BuildRequest
	headers map[string]*tar.Header
	files   map[string]string
}

func (c *tarEngine) Build(ctx context.Context, req engine.BuildRequest, progress func(engine.Progress)) (string, error) {
	data, err := io.ReadAll(req.Context)
	if err != nil {
		return "", err
	}
	c.req, c.headers, c.files = req, map[string]*tar.Header{}, map[string]string{}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		hdr, err := tr.Next()
		if err != nil {
			break
		}
		b, _ := io.ReadAll(tr)
		c.headers[hdr.Name], c.files[hdr.Name] = hdr, string(b)
	}
	req.Context = bytes.NewReader(data)
	return c.Engine.Build(ctx, req, progress)
}

// TestDockerfileOutsideTheContext: a Dockerfile outside build.context (by
// a relative path or an absolute one) is sent as docker build and Compose
// send it: in the context under a name of its own that the context's
// .dockerignore lists (the engine reads it, then leaves it out of what
// COPY sees), the .dockerignore written kept and extended, or made.
func TestDockerfileOutsideTheContext(t *testing.T) {
	tests := []struct {
		name       string
		ignore     string // the context's .dockerignore, "" for none
		wantIgnore string
	}{
		{"no .dockerignore", "", ".dockerignore\n" + outsideDockerfile + "\n"},
		{"a .dockerignore", "*.log\n", "*.log\n\n" + outsideDockerfile + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := composeInput(t)
			in.UserContext = filepath.Join(in.ProjectDir, "ctx")
			files := map[string]string{"ctx/app.txt": "hello\n"}
			if tt.ignore != "" {
				files["ctx/.dockerignore"] = tt.ignore
			}
			writeFiles(t, in.ProjectDir, files)
			in.Pins = map[string]string{"busybox:1.36": pinnedBusy}
			eng := &tarEngine{Engine: enginetest.New()}
			if _, err := Build(t.Context(), eng, in, Options{}, nil); err != nil {
				t.Fatal(err)
			}
			if eng.req.Dockerfile != outsideDockerfile {
				t.Errorf("the engine builds %q, want %q", eng.req.Dockerfile, outsideDockerfile)
			}
			sent := eng.files[outsideDockerfile]
			if !strings.Contains(sent, "FROM "+pinnedBusy+" AS tools") || !strings.Contains(sent, "COPY app.txt /app.txt") {
				t.Errorf("Dockerfile sent:\n%s", sent)
			}
			if got := eng.files[".dockerignore"]; got != tt.wantIgnore {
				t.Errorf(".dockerignore sent %q, want %q", got, tt.wantIgnore)
			}
			if _, ok := eng.files["app.txt"]; !ok {
				t.Errorf("app.txt not sent: %v", eng.files)
			}
		})
	}
	out := composeInput(t)
	out.UserContext = filepath.Join(out.ProjectDir, "ctx")
	writeFiles(t, out.ProjectDir, map[string]string{"ctx/app.txt": "hello\n"})
	before := mustHash(t, out)
	writeFiles(t, out.ProjectDir, map[string]string{"docker/Dockerfile": composeDockerfile + "COPY app.txt /again.txt\n"})
	if mustHash(t, out) == before {
		t.Error("an edit of the Dockerfile outside the context changes no tag")
	}
}

// TestSpecialFilesInTheContext: a FIFO in a build context is sent as a
// FIFO and a socket is left out, as docker build does; a device file is
// refused by its path.
func TestSpecialFilesInTheContext(t *testing.T) {
	in := composeInput(t)
	if err := syscall.Mkfifo(filepath.Join(in.ProjectDir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(in.ProjectDir, "s.sock"))
	if err != nil {
		t.Skipf("no unix socket here: %v", err)
	}
	defer func() { _ = l.Close() }()
	eng := &tarEngine{Engine: enginetest.New()}
	if _, err := Build(t.Context(), eng, in, Options{}, nil); err != nil {
		t.Fatal(err)
	}
	if h := eng.headers["pipe"]; h == nil || h.Typeflag != tar.TypeFifo {
		t.Errorf("pipe sent as %+v, want a FIFO", h)
	}
	if _, ok := eng.headers["s.sock"]; ok {
		t.Error("the socket was sent")
	}
	if _, err := os.Stat("/dev/null"); err != nil {
		return
	}
	dev := composeInput(t)
	if err := os.Symlink("/dev/null", filepath.Join(dev.ProjectDir, "null")); err != nil {
		t.Fatal(err)
	}
	// a link is sent as a link: only a device file itself is refused
	if _, err := Build(t.Context(), &tarEngine{Engine: enginetest.New()}, dev, Options{}, nil); err != nil {
		t.Errorf("a link to a device: %v", err)
	}
}
