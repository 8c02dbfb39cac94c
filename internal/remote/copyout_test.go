package remote

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// archive is a container's archive as the engine sends it: the copied
// file or folder first, under its own name.
func archive(t *testing.T, entries ...string) *tar.Reader {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		hdr := &tar.Header{Typeflag: tar.TypeDir, Name: e, Mode: 0o755}
		if !strings.HasSuffix(e, "/") {
			hdr = &tar.Header{Typeflag: tar.TypeReg, Name: e, Mode: 0o644, Size: int64(len(e))}
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(e)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return tar.NewReader(&buf)
}

// TestCopyOutFollowsDockerCp: devenv cp SERVICE:SRC DEST puts the copy
// where `docker cp` does. A file: into an existing folder under its name,
// over an existing file, or as DEST itself when DEST does not exist but
// its folder does (DEST/ must then exist); a folder: into an existing
// folder under its name (SRC/. : its contents), or as DEST when DEST does
// not exist; never onto a file, never making missing folders above DEST.
func TestCopyOutFollowsDockerCp(t *testing.T) {
	file := []string{"f.txt"}
	dir := []string{"out/", "out/r.txt", "out/sub/", "out/sub/s.txt"}
	contents := []string{"./", "./r.txt"}
	tests := []struct {
		name     string
		entries  []string
		dest     string // under the test's folder, which holds dir/ and file.txt
		contents bool
		want     map[string]string // path under the folder: content
		errHas   string
	}{
		{"file into a folder", file, "dir", false, map[string]string{"dir/f.txt": "f.txt"}, ""},
		{"file to a new name", file, "dir/new.txt", false, map[string]string{"dir/new.txt": "f.txt"}, ""},
		{"file over a file", file, "file.txt", false, map[string]string{"file.txt": "f.txt"}, ""},
		{"file, folder missing", file, "missing/new.txt", false, nil, "does not exist, nor does its folder"},
		{"file to a missing folder/", file, "new/", false, nil, "the folder"},
		{"folder into a folder", dir, "dir", false, map[string]string{"dir/out/r.txt": "out/r.txt", "dir/out/sub/s.txt": "out/sub/s.txt"}, ""},
		{"folder to a new name", dir, "copy", false, map[string]string{"copy/r.txt": "out/r.txt", "copy/sub/s.txt": "out/sub/s.txt"}, ""},
		{"folder to a new name/", dir, "copy/", false, map[string]string{"copy/r.txt": "out/r.txt"}, ""},
		{"folder onto a file", dir, "file.txt", false, nil, "is a file"},
		{"folder, folder missing", dir, "missing/copy", false, nil, "does not exist, nor does its folder"},
		{"folder's contents into a folder", contents, "dir", true, map[string]string{"dir/r.txt": "./r.txt"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			if err := os.Mkdir(filepath.Join(top, "dir"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(top, "file.txt"), []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			dest := filepath.Join(top, filepath.FromSlash(tt.dest))
			if strings.HasSuffix(tt.dest, "/") {
				dest += string(filepath.Separator)
			}
			_, err := extractTo(archive(t, tt.entries...), dest, tt.contents)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("error %v, want one with %q", err, tt.errHas)
				}
				if _, err := os.Stat(filepath.Join(top, "missing")); err == nil {
					t.Error("a refused copy made the missing folder")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for p, want := range tt.want {
				if b, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(p))); err != nil || string(b) != want {
					t.Errorf("%s: %q, %v; want %q", p, b, err, want)
				}
			}
		})
	}
}
