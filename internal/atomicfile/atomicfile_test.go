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
		data      string
		wantWrote bool
	}{
		{"new file", nil, "a\n", true},
		{"same bytes", ptr("a\n"), "a\n", false},
		{"other bytes", ptr("a\n"), "b\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f")
			if tt.old != nil {
				if err := os.WriteFile(p, []byte(*tt.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			wrote, err := WriteIfChanged(p, []byte(tt.data), 0o644)
			if err != nil || wrote != tt.wantWrote {
				t.Fatalf("WriteIfChanged = %v, %v; want %v, nil", wrote, err, tt.wantWrote)
			}
			got, err := os.ReadFile(p)
			if err != nil || string(got) != tt.data {
				t.Fatalf("file holds %q (%v), want %q", got, err, tt.data)
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
