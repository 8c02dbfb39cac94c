package standin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProjectWritesFiles(t *testing.T) {
	dir := Project(t, map[string]string{"devenv.yaml": "name: demo\n", "conf/spark/extra.conf": "a b\n"})
	for name, want := range map[string]string{"devenv.yaml": "name: demo\n", "conf/spark/extra.conf": "a b\n"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q (%v), want %q", name, got, err, want)
		}
	}
}

func TestProjectRejectsPathsOutside(t *testing.T) {
	dir := t.TempDir()
	err := writeProject(dir, map[string]string{"../escape": "x", "/abs": "x", "": "x", "ok.txt": "x"})
	if err == nil {
		t.Fatal("writeProject accepted paths outside the project")
	}
	for _, want := range []string{`"../escape"`, `"/abs"`, `""`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s:\n%v", want, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ok.txt")); err != nil {
		t.Errorf("the valid file was not written: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape")); err == nil {
		t.Errorf("a file escaped the project directory")
	}
}
