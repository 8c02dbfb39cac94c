package fastup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFingerprintSeesChanges: every kind of change to a watched file or
// tree changes the digest; what is outside them, in a hidden directory
// or in a skipped one does not.
func TestFingerprintSeesChanges(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, dir, outside string)
		differ bool
	}{
		{"nothing", func(*testing.T, string, string) {}, false},
		{"a tree file edited", func(t *testing.T, dir, _ string) { write(t, dir+"/proj/compose.yaml", "services: {b: {}}\n") }, true},
		{"a tree file touched", func(t *testing.T, dir, _ string) {
			later := time.Now().Add(time.Minute)
			if err := os.Chtimes(dir+"/proj/compose.yaml", later, later); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a file added to the tree", func(t *testing.T, dir, _ string) { write(t, dir+"/proj/sub/new.env", "A=1\n") }, true},
		{"a tree file removed", func(t *testing.T, dir, _ string) { must(t, os.Remove(dir+"/proj/compose.yaml")) }, true},
		{"an absent watched file appears", func(t *testing.T, _, outside string) { write(t, outside+"/.env", "A=1\n") }, true},
		{"a watched file outside edited", func(t *testing.T, _, outside string) { write(t, outside+"/shared.env", "B=2\n") }, true},
		{"a file in a hidden directory", func(t *testing.T, dir, _ string) { write(t, dir+"/proj/.git/HEAD", "x\n") }, false},
		{"a file in a skipped directory", func(t *testing.T, dir, _ string) { write(t, dir+"/proj/data/part-0001", "x\n") }, false},
		{"a file outside everything", func(t *testing.T, _, outside string) { write(t, outside+"/other", "x\n") }, false},
		// build contexts are walked as the build sends them
		{"a hidden file of a build context (COPY .cfg/app.txt)", func(t *testing.T, dir, _ string) { write(t, dir+"/proj/ctx/.cfg/app.txt", "v2\n") }, true},
		{"a build context that is also a writable mount", func(t *testing.T, dir, _ string) { write(t, dir+"/proj/src/Dockerfile", "FROM b\n") }, true},
		{"a file the context's .dockerignore excludes", func(t *testing.T, dir, _ string) { write(t, dir+"/proj/ctx/build.log", "more\n") }, false},
		{"the context's .dockerignore edited", func(t *testing.T, dir, _ string) { write(t, dir+"/proj/ctx/.dockerignore", "*.tmp\n") }, true},
		// a watched file that is a link is followed to its target
		{"the target of a linked devenv.yaml edited", func(t *testing.T, _, outside string) {
			write(t, outside+"/conf/real.yaml", "name: q\n")
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			write(t, dir+"/proj/devenv.yaml", "name: p\n")
			write(t, dir+"/proj/compose.yaml", "services: {a: {}}\n")
			write(t, dir+"/proj/.git/HEAD", "ref\n")
			write(t, dir+"/proj/data/part-0000", "x\n")
			write(t, outside+"/shared.env", "B=1\n")
			write(t, dir+"/proj/ctx/Dockerfile", "FROM a\nCOPY .cfg/app.txt /\n")
			write(t, dir+"/proj/ctx/.cfg/app.txt", "v1\n")
			write(t, dir+"/proj/ctx/.dockerignore", "*.log\n")
			write(t, dir+"/proj/ctx/build.log", "x\n")
			write(t, outside+"/conf/real.yaml", "name: p\n")
			must(t, os.Symlink(outside+"/conf/real.yaml", dir+"/proj/linked.yaml"))
			files := []string{outside + "/shared.env", outside + "/.env", dir + "/proj/linked.yaml"}
			trees := []string{dir + "/proj"}
			write(t, dir+"/proj/src/Dockerfile", "FROM a\n")
			skip := []string{dir + "/proj/data", dir + "/proj/src", dir + "/proj/ctx"}
			// src: a writable mount (./src:/src, the live-edit pattern) and a build context
			contexts := []string{dir + "/proj/ctx", dir + "/proj/src"}
			before, err := Fingerprint(files, trees, skip, contexts)
			must(t, err)
			tt.change(t, dir, outside)
			after, err := Fingerprint(files, trees, skip, contexts)
			must(t, err)
			if differ := before.Digest != after.Digest; differ != tt.differ {
				t.Errorf("digest changed: %v, want %v", differ, tt.differ)
			}
		})
	}
}

func TestFingerprintNewest(t *testing.T) {
	dir := t.TempDir()
	write(t, dir+"/a", "1")
	old := time.Now().Add(-time.Hour)
	must(t, os.Chtimes(dir+"/a", old, old))
	st, err := Fingerprint([]string{dir + "/a"}, nil, nil, nil)
	must(t, err)
	// the status change (just now, by Chtimes) is newer than the mtime
	if !st.Newest.After(old.Add(time.Minute)) {
		t.Errorf("Newest = %v: the status change of a just-touched file is missed", st.Newest)
	}
}

func TestFingerprintBounded(t *testing.T) {
	dir := t.TempDir()
	for i := range 10 {
		write(t, fmt.Sprintf("%s/d%d/f", dir, i%3), "")
	}
	if _, err := fingerprint(nil, []string{dir}, nil, nil, 5); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("fingerprint of a tree of 7 entries, at most 5: %v, want ErrTooLarge", err)
	}
	if _, err := fingerprint(nil, []string{dir}, nil, nil, 7); err != nil {
		t.Fatalf("fingerprint of a tree of 7 entries, at most 7: %v", err)
	}
}

func TestFingerprintDoesNotFollowLinks(t *testing.T) {
	dir, target := t.TempDir(), t.TempDir()
	write(t, target+"/f", "1")
	must(t, os.Symlink(target, dir+"/link"))
	before, err := Fingerprint(nil, []string{dir}, nil, nil)
	must(t, err)
	write(t, target+"/f", "changed")
	after, err := Fingerprint(nil, []string{dir}, nil, nil)
	must(t, err)
	if before.Digest != after.Digest {
		t.Error("the walk followed a link out of the tree")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
