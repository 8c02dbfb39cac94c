package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestCoreNextTo(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir+"/opt/bin/devenv")
	touch(t, dir+"/opt/bin/"+coreName())
	touch(t, dir+"/lonely/devenv")
	if err := os.MkdirAll(dir+"/home/bin", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir+"/opt/bin/devenv", dir+"/home/bin/devenv"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir+"/dir", 0o755); err != nil {
		t.Fatal(err)
	}
	touch(t, dir+"/dir/devenv")
	if err := os.Mkdir(dir+"/dir/"+coreName(), 0o755); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "opt/bin", coreName())
	for _, self := range []string{dir + "/opt/bin/devenv", dir + "/home/bin/devenv"} {
		got, err := coreNextTo(self)
		if err != nil || got != want {
			t.Errorf("coreNextTo(%s) = %q, %v; want %q", self, got, err, want)
		}
	}
	for _, self := range []string{dir + "/lonely/devenv", dir + "/dir/devenv"} {
		_, err := coreNextTo(self)
		if err == nil || !strings.Contains(err.Error(), "is missing next to") || !strings.Contains(err.Error(), "make build") {
			t.Errorf("coreNextTo(%s): %v, want the missing-program error with its fix", self, err)
		}
	}
}
