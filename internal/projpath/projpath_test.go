package projpath

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	dir := filepath.FromSlash("/work/proj")
	tests := []struct {
		p       string
		wantRel string
		wantOK  bool
	}{
		{"/work/proj", ".", true},
		{"/work/proj/", ".", true},
		{"/work/proj/a/b.txt", "a/b.txt", true},
		{"/work/proj/..foo", "..foo", true},
		{"/work/proj/..", "", false},
		{"/work/proj/../other/x", "", false},
		{"/work/proj-other/x", "", false},
		{"/work/projx", "", false},
		{"/etc/passwd", "", false},
		{"/work/proj/a/../../proj/b", "b", true},
	}
	for _, tt := range tests {
		t.Run(tt.p, func(t *testing.T) {
			rel, ok := Within(dir, filepath.FromSlash(tt.p))
			if rel != tt.wantRel || ok != tt.wantOK {
				t.Errorf("Within(%q, %q) = %q, %v; want %q, %v", dir, tt.p, rel, ok, tt.wantRel, tt.wantOK)
			}
		})
	}
}

func TestWithinRelativeInput(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if rel, ok := Within(wd, "sub/f"); !ok || rel != "sub/f" {
		t.Errorf("Within(wd, sub/f) = %q, %v; want sub/f, true", rel, ok)
	}
	if _, ok := Within(wd, "../f"); ok {
		t.Error("Within(wd, ../f) = true, want false")
	}
}

func TestInsideSymlinks(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	outside := filepath.Join(root, "outside")
	for _, d := range []string{filepath.Join(proj, "data"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(proj, "data", "a.csv"))
	write(t, filepath.Join(outside, "secret"))
	link(t, filepath.Join(outside, "secret"), filepath.Join(proj, "escape"))
	link(t, filepath.Join(proj, "data"), filepath.Join(proj, "alias"))
	link(t, filepath.Join(root, "nowhere"), filepath.Join(proj, "dangling"))
	link(t, proj, filepath.Join(root, "projlink")) // the project reached through a link

	tests := []struct {
		name    string
		dir, p  string
		wantRel string
		wantOK  bool
	}{
		{"plain file", proj, filepath.Join(proj, "data", "a.csv"), "data/a.csv", true},
		{"link out of the project", proj, filepath.Join(proj, "escape"), "", false},
		{"link within the project", proj, filepath.Join(proj, "alias", "a.csv"), "data/a.csv", true},
		{"dangling link", proj, filepath.Join(proj, "dangling"), "", false},
		{"not yet created", proj, filepath.Join(proj, "new", "file"), "new/file", true},
		{"not yet created outside", proj, filepath.Join(root, "new"), "", false},
		{"project dir through a link", filepath.Join(root, "projlink"), filepath.Join(proj, "data"), "data", true},
		{"file through the project link", proj, filepath.Join(root, "projlink", "data", "a.csv"), "data/a.csv", true},
		{"dot-dot name", proj, filepath.Join(proj, "..foo"), "..foo", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rel, ok := Inside(tt.dir, tt.p)
			if rel != tt.wantRel || ok != tt.wantOK {
				t.Errorf("Inside(%q, %q) = %q, %v; want %q, %v", tt.dir, tt.p, rel, ok, tt.wantRel, tt.wantOK)
			}
		})
	}
}

func write(t *testing.T, p string) {
	t.Helper()
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("cannot create symbolic links here: %v", err)
	}
}
