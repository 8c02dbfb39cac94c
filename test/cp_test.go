package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCpFollowsDockerCp: devenv cp, both ways, against a real engine,
// puts each copy where docker cp does: SERVICE:FILE to a path that does
// not exist (its folder does) is that file; a missing folder above the
// destination is an error, not made; a folder to a new name is that
// folder, FOLDER/. its contents; SRC SERVICE:DEST by the same rules.
func TestCpFollowsDockerCp(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, chattyBox, nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait")
	w.must(t, dir, "exec", "box", "--", "sh", "-c", "mkdir -p /tmp/d/sub && echo f > /tmp/f && echo s > /tmp/d/sub/s")

	w.must(t, dir, "cp", "box:/tmp/f", filepath.Join(dir, "new.txt"))
	if got := readFile(t, filepath.Join(dir, "new.txt")); got != "f\n" {
		t.Errorf("cp box:/tmp/f DIR/new.txt: new.txt holds %q, want the file", got)
	}
	if r := w.run(t, dir, "cp", "box:/tmp/f", filepath.Join(dir, "missing", "x")); r.Code == 0 || !strings.Contains(r.Stderr, "does not exist") {
		t.Errorf("cp into a missing folder: exit %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Error("cp made the missing folder")
	}
	w.must(t, dir, "cp", "box:/tmp/d", filepath.Join(dir, "copy"))
	if got := readFile(t, filepath.Join(dir, "copy", "sub", "s")); got != "s\n" {
		t.Errorf("cp box:/tmp/d DIR/copy: copy/sub/s holds %q", got)
	}
	w.must(t, dir, "cp", "box:/tmp/d/.", filepath.Join(dir, "flat"+string(filepath.Separator)))
	if got := readFile(t, filepath.Join(dir, "flat", "sub", "s")); got != "s\n" {
		t.Errorf("cp box:/tmp/d/. DIR/flat/: flat/sub/s holds %q", got)
	}

	w.must(t, dir, "cp", filepath.Join(dir, "new.txt"), "box:/tmp/in.txt")
	w.must(t, dir, "cp", filepath.Join(dir, "copy"), "box:/tmp/")
	out := w.must(t, dir, "exec", "box", "--", "sh", "-c", "cat /tmp/in.txt /tmp/copy/sub/s")
	if out.Stdout != "f\ns\n" {
		t.Errorf("cp DIR/new.txt box:/tmp/in.txt and DIR/copy box:/tmp/: the container holds %q", out.Stdout)
	}
	if r := w.run(t, dir, "cp", filepath.Join(dir, "new.txt"), "box:/nope/x.txt"); r.Code == 0 || !strings.Contains(r.Stderr, "does not exist in the container") {
		t.Errorf("cp into a missing folder in the container: exit %d: %s", r.Code, r.Stderr)
	}
}
