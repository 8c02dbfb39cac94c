package remote

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// dirContainer is a container whose file system is a folder here, with
// the archive endpoints as the engine has them: CopyFrom sends the path
// under its own name (404 when missing), CopyTo extracts into a folder
// that must exist.
type dirContainer struct {
	*enginetest.Fake
	root string
	uids map[string]int // uid of each file written, by container path
}

func (d *dirContainer) host(p string) string { return filepath.Join(d.root, filepath.FromSlash(p)) }

func (d *dirContainer) CopyFrom(_ context.Context, _, p string) (io.ReadCloser, error) {
	if _, err := os.Stat(d.host(p)); err != nil {
		return nil, fmt.Errorf("no such file %s: %w", p, engine.ErrNotFound)
	}
	var buf bytes.Buffer
	if err := writeTree(&buf, d.host(p), filepath.Base(d.host(p)), 0, 0, &Copied{}); err != nil {
		return nil, err
	}
	return io.NopCloser(&buf), nil
}

func (d *dirContainer) CopyTo(_ context.Context, _, dir string, r io.Reader) error {
	if fi, err := os.Stat(d.host(dir)); err != nil || !fi.IsDir() {
		return fmt.Errorf("no folder %s: %w", dir, engine.ErrNotFound)
	}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		d.uids[filepath.ToSlash(filepath.Join(dir, hdr.Name))] = hdr.Uid
		target := d.host(filepath.Join(dir, hdr.Name))
		if hdr.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := writeFile(target, tr, hdr); err != nil {
			return err
		}
	}
}

func (d *dirContainer) Owner(context.Context, string) (int, int, error) { return 1000, 1000, nil }

// TestCopyInFollowsDockerCp: devenv cp SRC SERVICE:DEST puts the copy
// where `docker cp SRC CONTAINER:DEST` does, as CopyOut the other way,
// owned by the container's user.
func TestCopyInFollowsDockerCp(t *testing.T) {
	tests := []struct {
		name   string
		src    string // under the local folder, which holds f.txt and out/{r.txt,sub/s.txt}
		dest   string // in the container, which holds /dir/ and /file.txt
		want   map[string]string
		errHas string
	}{
		{"file into a folder", "f.txt", "/dir", map[string]string{"dir/f.txt": "f"}, ""},
		{"file to a new name", "f.txt", "/dir/new.txt", map[string]string{"dir/new.txt": "f"}, ""},
		{"file over a file", "f.txt", "/file.txt", map[string]string{"file.txt": "f"}, ""},
		{"file, folder missing", "f.txt", "/missing/new.txt", nil, "does not exist in the container, nor does its folder"},
		{"file to a missing folder/", "f.txt", "/new/", nil, "the folder /new/ does not exist"},
		{"folder into a folder", "out", "/dir", map[string]string{"dir/out/r.txt": "r", "dir/out/sub/s.txt": "s"}, ""},
		{"folder to a new name", "out", "/copy", map[string]string{"copy/r.txt": "r", "copy/sub/s.txt": "s"}, ""},
		{"folder onto a file", "out", "/file.txt", nil, "is a file in the container"},
		{"folder's contents into a folder", "out/.", "/dir", map[string]string{"dir/r.txt": "r", "dir/sub/s.txt": "s"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			local, root := t.TempDir(), t.TempDir()
			for p, body := range map[string]string{"f.txt": "f", "out/r.txt": "r", "out/sub/s.txt": "s"} {
				writeTestFile(t, filepath.Join(local, p), body)
			}
			writeTestFile(t, filepath.Join(root, "file.txt"), "old")
			if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
				t.Fatal(err)
			}
			c := &dirContainer{Fake: enginetest.New(), root: root, uids: map[string]int{}}
			c.AddImage("busybox", nil)
			if _, err := c.Create(t.Context(), engine.ContainerSpec{Name: "ctr", Image: "busybox"}); err != nil {
				t.Fatal(err)
			}
			src := filepath.Join(local, filepath.FromSlash(tt.src))
			if strings.HasSuffix(tt.src, "/.") {
				src = filepath.Join(local, filepath.FromSlash(strings.TrimSuffix(tt.src, "/."))) + string(filepath.Separator) + "."
			}
			_, err := CopyIn(t.Context(), c, "ctr", src, tt.dest, 1000, 1000)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("error %v, want one with %q", err, tt.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for p, want := range tt.want {
				if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p))); err != nil || string(b) != want {
					t.Errorf("%s: %q, %v; want %q", p, b, err, want)
				}
				if uid := c.uids["/"+p]; uid != 1000 {
					t.Errorf("%s written with uid %d, want the container user's 1000", p, uid)
				}
			}
		})
	}
}

func writeTestFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
