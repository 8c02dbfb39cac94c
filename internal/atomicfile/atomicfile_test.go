package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteIfChanged(t *testing.T) {
	tests := []struct {
		name      string
		old       *string
		oldMode   os.FileMode
		data      string
		wantWrote bool
	}{
		{"new file", nil, 0, "a\n", true},
		{"same bytes", ptr("a\n"), 0o600, "a\n", false},
		{"other bytes", ptr("a\n"), 0o600, "b\n", true},
		{"same bytes, looser mode", ptr("a\n"), 0o644, "a\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f")
			if tt.old != nil {
				if err := os.WriteFile(p, []byte(*tt.old), tt.oldMode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, tt.oldMode); err != nil { // past the umask
					t.Fatal(err)
				}
			}
			wrote, err := WriteIfChanged(p, []byte(tt.data), 0o600)
			if err != nil || wrote != tt.wantWrote {
				t.Fatalf("WriteIfChanged = %v, %v; want %v, nil", wrote, err, tt.wantWrote)
			}
			got, err := os.ReadFile(p)
			if err != nil || string(got) != tt.data {
				t.Fatalf("file holds %q (%v), want %q", got, err, tt.data)
			}
			if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v (%v), want 0600", st.Mode().Perm(), err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("directory holds %d entries, want only the file (no temp file left)", len(entries))
			}
		})
	}
}

func TestWriteFileErrorNamesPath(t *testing.T) {
	p := filepath.Join(t.TempDir(), "missing-dir", "f")
	err := WriteFile(p, []byte("x"), 0o644)
	if err == nil {
		t.Fatal("WriteFile into a missing directory succeeded")
	}
	if got := err.Error(); !strings.Contains(got, p) {
		t.Errorf("error %q does not name %s", got, p)
	}
}

func TestWriteFileMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

func ptr(s string) *string { return &s }
