package reconcile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/statedir"
)

// TestLockCreatesNothingThroughALink: with .devenv, its run.lock or the
// lock's holder file planted as a link to a directory or file elsewhere,
// taking the project lock fails before creating anything there.
func TestLockCreatesNothingThroughALink(t *testing.T) {
	tests := []struct {
		name  string
		plant func(t *testing.T, state, outside string)
	}{
		{".devenv is a link", func(t *testing.T, state, outside string) { symlink(t, outside, state) }},
		{"run.lock is a link", func(t *testing.T, state, outside string) {
			mkdirAll(t, state)
			symlink(t, filepath.Join(outside, "run.lock"), filepath.Join(state, LockFile))
		}},
		{"the holder file is a link", func(t *testing.T, state, outside string) {
			mkdirAll(t, state)
			symlink(t, filepath.Join(outside, "holder"), filepath.Join(state, LockFile+".holder"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project, outside := t.TempDir(), t.TempDir()
			state := filepath.Join(project, ".devenv")
			tt.plant(t, state, outside)
			release, err := Lock(t.Context(), state, LockOptions{})
			if err == nil {
				release()
				t.Fatal("Lock through a link: no error")
			}
			if !errors.Is(err, statedir.ErrSymlink) {
				t.Errorf("error %v is not statedir.ErrSymlink", err)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("Lock created %v outside the project", entries)
			}
		})
	}
}

func symlink(t *testing.T, target, at string) {
	t.Helper()
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

func mkdirAll(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}
