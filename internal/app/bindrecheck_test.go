package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpRechecksBindSourcesBeforeCreate: a relative volume source that was
// a directory of the project when devenv.yaml was loaded, and is a link
// out of the project by the time the container is created, is refused
// before the engine is asked to create anything (plan.CheckBindSources),
// naming the service, the source and where it leads; with the directory
// back, up creates the container.
func TestUpRechecksBindSourcesBeforeCreate(t *testing.T) {
	yaml := "name: demo\nservices:\n  app:\n    profile: image\n    image: busybox:1\n    command: [sleep, \"3600\"]\n    volumes: [\"./data:/data\"]\n"
	w := newWorld(t, yaml, map[string]string{"data/keep": "x"})
	w.lock(t)
	ctx := t.Context()
	data := filepath.Join(w.dir, "data")
	p := w.open(t) // loaded and checked: ./data is the project's own directory
	outside := t.TempDir()
	if err := os.RemoveAll(data); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, data); err != nil {
		t.Fatal(err)
	}
	_, err := p.Up(ctx, UpOptions{})
	if err == nil || !strings.Contains(err.Error(), `service "app": volume source ./data is now a symbolic link to `+outside) ||
		!strings.Contains(err.Error(), "outside the project directory") {
		t.Fatalf("up with ./data linked out since load: %v, want it refused naming the link", err)
	}
	if n := len(w.eng.CallsTo("Create")); n != 0 {
		t.Fatalf("the engine was asked to create %d containers", n)
	}
	if err := os.Remove(data); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := w.open(t).Up(ctx, UpOptions{}); err != nil {
		t.Fatalf("up with ./data a directory again: %v", err)
	}
	if n := len(w.eng.CallsTo("Create")); n != 1 {
		t.Fatalf("created %d containers, want 1", n)
	}
}

// TestUpRechecksSecretFilesBeforeCreate: the same rule for a compose
// secret's and config's file: a project file at load, a link out of the
// project by the time the container is created, is refused before the
// engine (the fake here, the real one in test/) is asked to create it.
func TestUpRechecksSecretFilesBeforeCreate(t *testing.T) {
	for _, key := range []string{"secrets", "configs"} {
		t.Run(key, func(t *testing.T) {
			yaml := "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: busybox:1\n    command: [sleep, \"3600\"]\n"
			w := newWorld(t, yaml, map[string]string{"s.txt": "inside",
				"compose.yaml": "services:\n  side:\n    image: busybox:1\n    " + key + ": [s]\n" + key + ":\n  s:\n    file: ./s.txt\n"})
			w.lock(t)
			p := w.open(t)
			outside := filepath.Join(t.TempDir(), "host.txt")
			if err := os.WriteFile(outside, []byte("outside"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(w.dir, "s.txt")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(w.dir, "s.txt")); err != nil {
				t.Fatal(err)
			}
			_, err := p.Up(t.Context(), UpOptions{})
			want := `service "side": ` + key[:len(key)-1] + ` s file ./s.txt is now a symbolic link to ` + outside
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("up with ./s.txt linked out since load: %v, want it refused: %s", err, want)
			}
			for _, c := range w.eng.CallsTo("Create") {
				if strings.Contains(fmt.Sprint(c.Arg), "side") {
					t.Fatalf("the engine was asked to create side: %v", c.Arg)
				}
			}
		})
	}
}
