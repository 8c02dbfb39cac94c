package engine

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// TestFilesArchive: the tar Create sends holds exactly one regular-file
// entry per file, at its path below the root, with its mode, the resolved
// owner and its bytes; no directory entry that would replace the mode or
// owner of the image's own directories.
func TestFilesArchive(t *testing.T) {
	mtime := time.Unix(1700000000, 0)
	files := []File{
		{Path: "/opt/devenv/conf/spark-defaults.conf", Mode: 0o600, Data: []byte("spark.master local[*]\n")},
		{Path: "/etc/devenv/empty", Mode: 0o640},
	}
	data, err := filesArchive(files, owner{uid: 1000, gid: 1001}, mtime)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(bytes.NewReader(data))
	for i, f := range files {
		hdr, err := tr.Next()
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if hdr.Typeflag != tar.TypeReg {
			t.Errorf("%s: type %q, want a regular file (no directory entries)", hdr.Name, hdr.Typeflag)
		}
		if want := strings.TrimPrefix(f.Path, "/"); hdr.Name != want {
			t.Errorf("entry %d is named %q, want %q (extracted at /)", i, hdr.Name, want)
		}
		if hdr.Mode != int64(f.Mode) || hdr.Uid != 1000 || hdr.Gid != 1001 || !hdr.ModTime.Equal(mtime) {
			t.Errorf("%s: mode %o owner %d:%d time %v; want %o 1000:1001 %v", hdr.Name, hdr.Mode, hdr.Uid, hdr.Gid, hdr.ModTime, f.Mode, mtime)
		}
		got, err := io.ReadAll(tr)
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s holds %q (%v), want %q", hdr.Name, got, err, f.Data)
		}
	}
	if hdr, err := tr.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("an extra entry %+v (%v)", hdr, err)
	}
}

// TestCopyOptionsLeaveOwnershipToTheArchive: the engine must keep the
// owner written in the archive. CopyUIDGID would make engines before moby's
// fix look the container's user up on the host (Docker 20.10 refuses a
// named user the host lacks); AllowOverwriteDirWithFile would let a file
// replace a directory of the image.
func TestCopyOptionsLeaveOwnershipToTheArchive(t *testing.T) {
	if copyOptions.CopyUIDGID {
		t.Error("CopyUIDGID is on: the engine would chown to a user it may look up on the host")
	}
	if copyOptions.AllowOverwriteDirWithFile {
		t.Error("AllowOverwriteDirWithFile is on: a file could replace a directory of the image")
	}
}

func TestResolveOwner(t *testing.T) {
	passwd := "root:x:0:0:root:/root:/bin/sh\ndevenv:x:1000:1000::/home/devenv:/bin/bash\nspark:x:185:185::/opt/spark:/bin/sh\n"
	group := "root:x:0:\ndevenv:x:1000:\nstaff:x:50:devenv\n"
	tests := []struct {
		user    string
		passwd  bool // the image has /etc/passwd and /etc/group
		want    owner
		wantErr string
	}{
		{user: "", passwd: true, want: owner{}},
		{user: "", passwd: false, want: owner{}},
		{user: "devenv", passwd: true, want: owner{1000, 1000}},
		{user: "spark", passwd: true, want: owner{185, 185}},
		{user: "1000", passwd: true, want: owner{1000, 1000}},
		{user: "4321", passwd: true, want: owner{4321, 0}}, // no entry: group 0, as docker run
		{user: "4321:4322", passwd: false, want: owner{4321, 4322}},
		{user: "devenv:staff", passwd: true, want: owner{1000, 50}},
		{user: "devenv:77", passwd: true, want: owner{1000, 77}},
		{user: "nobody-here", passwd: true, wantErr: "unable to find user nobody-here"},
		{user: "devenv", passwd: false, wantErr: "unable to find user devenv"},
		{user: "devenv:nogroup", passwd: true, wantErr: "unable to find group nogroup"},
	}
	for _, tt := range tests {
		t.Run(tt.user, func(t *testing.T) {
			var pr, gr io.Reader
			if tt.passwd {
				pr, gr = strings.NewReader(passwd), strings.NewReader(group)
			}
			got, err := resolveOwner(tt.user, pr, gr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("resolveOwner(%q) = %v, %v; want an error with %q", tt.user, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("resolveOwner(%q) = %+v, %v; want %+v", tt.user, got, err, tt.want)
			}
		})
	}
}

func TestNeedsGroupFile(t *testing.T) {
	for user, want := range map[string]bool{"": false, "devenv": false, "1000:1000": false, "devenv:": false, "devenv:staff": true, "1000:g1": true} {
		if got := needsGroupFile(user); got != want {
			t.Errorf("needsGroupFile(%q) = %v, want %v", user, got, want)
		}
	}
}

func TestValidateChecksFiles(t *testing.T) {
	spec := ContainerSpec{Name: "x", Image: "img", Files: []File{
		{Path: "relative/conf", Mode: 0o600},
		{Path: "/a/../b", Mode: 0o600},
		{Path: "/", Mode: 0o600},
		{Path: "/ok", Mode: 0o600 | 0o4000},
		{Path: "/twice", Mode: 0o600},
		{Path: "/twice", Mode: 0o644},
	}}
	err := spec.Validate()
	if err == nil {
		t.Fatal("Validate accepted bad files")
	}
	for _, want := range []string{`"relative/conf"`, `"/a/../b"`, `file "/":`, "more than permission bits", `"/twice" is given twice`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %s:\n%v", want, err)
		}
	}
	good := ContainerSpec{Name: "x", Image: "img", Files: []File{{Path: "/opt/devenv/conf/spark-defaults.conf", Mode: 0o600}}}
	if err := good.Validate(); err != nil {
		t.Errorf("Validate rejected a good file: %v", err)
	}
}
