package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSweepTemps(t *testing.T) {
	tests := []struct {
		name  string
		files []string // made in the directory before the sweep
		base  string
		want  []string // left after it
	}{
		{"a killed writer's temp", []string{"devenv.lock", ".tmp-devenv.lock123456"}, "devenv.lock", []string{"devenv.lock"}},
		{"several", []string{".tmp-devenv.lock1", ".tmp-devenv.lock22"}, "devenv.lock", nil},
		{"another file's temp is kept", []string{".tmp-devenv.lock.bak1", ".tmp-devenv.lockx"}, "devenv.lock", []string{".tmp-devenv.lock.bak1", ".tmp-devenv.lockx"}},
		{"the user's own files are kept", []string{".tmp-devenv.lock", "tmp-devenv.lock1"}, "devenv.lock", []string{".tmp-devenv.lock", "tmp-devenv.lock1"}},
		{"glob characters in the name", []string{".tmp-a[1]1", ".tmp-a11"}, "a[1]", []string{".tmp-a11"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			SweepTemps(dir, tt.base)
			if got := names(t, dir); !slices.Equal(got, tt.want) {
				t.Errorf("left %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSweepDirLeavesWhatDevenvNeverMade(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{".tmp-jupyter-token335038469", "jupyter-token", ".tmp-receipt.json9"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".tmp-dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("jupyter-token", filepath.Join(dir, ".tmp-link")); err != nil {
		t.Fatal(err)
	}
	removed := SweepDir(dir)
	if len(removed) != 2 {
		t.Errorf("removed %q, want the two temp files", removed)
	}
	if got, want := names(t, dir), []string{".tmp-dir", ".tmp-link", "jupyter-token"}; !slices.Equal(got, want) {
		t.Errorf("left %q, want %q", got, want)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
