package statedir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, state, outside string)
		path    string // relative to the state dir
		wantErr bool
	}{
		{"missing parts are fine", func(*testing.T, string, string) {}, "generated/spark", false},
		{"real directories", func(t *testing.T, state, _ string) { mkdir(t, filepath.Join(state, "generated", "spark")) }, "generated/spark", false},
		{"the service directory is a link out", func(t *testing.T, state, outside string) {
			mkdir(t, filepath.Join(state, "generated"))
			link(t, outside, filepath.Join(state, "generated", "spark"))
		}, "generated/spark", true},
		{"a parent is a link out", func(t *testing.T, state, outside string) {
			link(t, outside, filepath.Join(state, "generated"))
		}, "generated/spark", true},
		{".devenv itself is a link", func(t *testing.T, state, outside string) {
			if err := os.Remove(state); err != nil {
				t.Fatal(err)
			}
			link(t, outside, state)
		}, "jobs/1.log", true},
		{"a link that stays inside .devenv is still refused", func(t *testing.T, state, _ string) {
			mkdir(t, filepath.Join(state, "jobs"))
			link(t, filepath.Join(state, "jobs"), filepath.Join(state, "generated"))
		}, "generated/spark", true},
		{"a log file that is a link", func(t *testing.T, state, outside string) {
			mkdir(t, filepath.Join(state, "jobs"))
			link(t, filepath.Join(outside, "secret"), filepath.Join(state, "jobs", "1.log"))
		}, "jobs/1.log", true},
		{"outside .devenv", func(*testing.T, string, string) {}, "../devenv.yaml", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project, outside := t.TempDir(), t.TempDir()
			state := filepath.Join(project, ".devenv")
			mkdir(t, state)
			tt.setup(t, state, outside)
			err := Check(state, filepath.Join(state, filepath.FromSlash(tt.path)))
			if (err != nil) != tt.wantErr {
				t.Fatalf("Check = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr && tt.path != "../devenv.yaml" && !errors.Is(err, ErrSymlink) {
				t.Errorf("error %v is not ErrSymlink", err)
			}
		})
	}
}

func TestMkdirAllDoesNotFollow(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	state := filepath.Join(project, ".devenv")
	mkdir(t, state)
	link(t, outside, filepath.Join(state, "generated"))
	if err := MkdirAll(state, filepath.Join(state, "generated", "spark")); err == nil {
		t.Fatal("MkdirAll through a link: no error")
	}
	if _, err := os.Stat(filepath.Join(outside, "spark")); !os.IsNotExist(err) {
		t.Errorf("MkdirAll created a directory outside the project: %v", err)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, at string) {
	t.Helper()
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}
