package remote

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// volume is a fake engine whose container's /workspace is a map: CopyTo
// extracts into it, CopyFrom archives from it, Exec runs `rm -f`.
type volume struct {
	*enginetest.Fake
	files  map[string][]byte // path under /workspace -> content
	owners map[string][2]int
	puts   int
}

func newVolume() *volume {
	return &volume{Fake: enginetest.New(), files: map[string][]byte{}, owners: map[string][2]int{}}
}

func (v *volume) CopyTo(_ context.Context, _, dir string, r io.Reader) error {
	v.puts++
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		v.owners[hdr.Name] = [2]int{hdr.Uid, hdr.Gid}
		if hdr.Typeflag == tar.TypeReg {
			b, _ := io.ReadAll(tr)
			v.files[strings.TrimPrefix(path.Join(dir, hdr.Name), Workspace+"/")] = b
		}
	}
}

func (v *volume) CopyFrom(_ context.Context, _, p string) (io.ReadCloser, error) {
	b, ok := v.files[strings.TrimPrefix(p, Workspace+"/")]
	if !ok {
		return nil, &engine.Error{Op: "copy", Kind: engine.ErrNotFound, Err: errors.New("no such file")}
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: path.Base(p), Size: int64(len(b)), Mode: 0o644})
	_, _ = tw.Write(b)
	_ = tw.Close()
	return io.NopCloser(&buf), nil
}

func (v *volume) Owner(context.Context, string) (int, int, error) { return 1000, 1000, nil }

func (v *volume) Exec(_ context.Context, _ string, o engine.ExecOptions) (int, error) {
	if len(o.Cmd) < 3 || o.Cmd[0] != "rm" {
		return 127, nil
	}
	for _, p := range o.Cmd[3:] {
		delete(v.files, strings.TrimPrefix(p, Workspace+"/"))
	}
	return 0, nil
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSyncByHashThenChanges(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "job.py", "print(1)\n")
	write(t, dir, "data/a.csv", "x\n1\n")
	write(t, dir, ".git/HEAD", "ref\n")
	write(t, dir, ".devenv/state/token", "secret\n")
	write(t, dir, ".gitignore", "scratch/\n*.tmp\n")
	write(t, dir, ".dockerignore", "build\n")
	write(t, dir, "scratch/big", "no\n")
	write(t, dir, "x.tmp", "no\n")
	write(t, dir, "build/out.o", "no\n")
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	v := newVolume()
	ctx := t.Context()
	s, err := NewSyncer(ctx, v, dir, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if !s.First {
		t.Error("an empty volume is a first sync")
	}
	ch, err := s.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".dockerignore", ".gitignore", "data/a.csv", "job.py"}
	if !slices.Equal(ch.Sent, want) || !slices.Equal(ch.Skipped, []string{"link"}) {
		t.Fatalf("sent %v skipped %v, want %v and the link", ch.Sent, ch.Skipped, want)
	}
	if o := v.owners["data/"]; o != [2]int{1000, 1000} {
		t.Errorf("directory owned by %v, want the container's user 1000:1000", o)
	}
	if ch, _ := s.Sync(ctx); !ch.Empty() || v.puts != 1 {
		t.Errorf("an unchanged project sent %v (%d archives)", ch, v.puts)
	}
	write(t, dir, "job.py", "print(2)\n")
	if err := os.Remove(filepath.Join(dir, "data", "a.csv")); err != nil {
		t.Fatal(err)
	}
	ch, err = s.Sync(ctx)
	if err != nil || !slices.Equal(ch.Sent, []string{"job.py"}) || !slices.Equal(ch.Deleted, []string{"data/a.csv"}) {
		t.Fatalf("after an edit and a removal: %+v, %v", ch, err)
	}
	if string(v.files["job.py"]) != "print(2)\n" || v.files["data/a.csv"] != nil {
		t.Errorf("the volume holds job.py %q and data/a.csv %q", v.files["job.py"], v.files["data/a.csv"])
	}

	// A new syncer (another session) reads the manifest: only what differs goes.
	write(t, dir, "new.txt", "n\n")
	s2, err := NewSyncer(ctx, v, dir, "c1")
	if err != nil {
		t.Fatal(err)
	}
	ch, err = s2.Sync(ctx)
	if err != nil || s2.First || !slices.Equal(ch.Sent, []string{"new.txt"}) {
		t.Fatalf("a second session sent %v (first %v, %v), want only new.txt", ch.Sent, s2.First, err)
	}
}

func TestCopyOutStaysInDest(t *testing.T) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: "out/", Mode: 0o755})
	_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "out/r.txt", Size: 3, Mode: 0o640})
	_, _ = tw.Write([]byte("ok\n"))
	_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: "out/l", Linkname: "/etc/shadow"})
	_ = tw.Close()
	dest := t.TempDir()
	c, err := extractTo(tar.NewReader(&buf), dest, false)
	if err != nil || c.Files != 1 || !slices.Equal(c.Skipped, []string{"out/l"}) {
		t.Fatalf("copied %+v, %v", c, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dest, "out", "r.txt")); string(b) != "ok\n" {
		t.Errorf("r.txt holds %q", b)
	}

	buf.Reset()
	tw = tar.NewWriter(&buf)
	_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "../evil", Size: 1})
	_, _ = tw.Write([]byte("x"))
	_ = tw.Close()
	if _, err := extractTo(tar.NewReader(&buf), dest, false); err == nil || !strings.Contains(err.Error(), "outside the destination") {
		t.Errorf("an entry outside dest: %v", err)
	}

	if err := os.Symlink(t.TempDir(), filepath.Join(dest, "via")); err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	tw = tar.NewWriter(&buf)
	_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "via/f", Size: 1})
	_, _ = tw.Write([]byte("x"))
	_ = tw.Close()
	if _, err := extractTo(tar.NewReader(&buf), dest, false); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("writing through a link: %v", err)
	}
}
