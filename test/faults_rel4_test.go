package e2e

// Caches that verify and projects that converge from anywhere: a cache
// entry corrupted on disk, a registry that lies about its manifests, a
// project directory moved or deleted while its containers run.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
)

// TestFaultCorruptCacheEntry: every artifact in the cache truncated (a
// crash or a full disk) does not fail the next lock: each is hashed, found
// corrupt, fetched again; the cache holds the right bytes after.
func TestFaultCorruptCacheEntry(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, lockYAML, nil)
	cache := t.TempDir()
	env := append(append([]string{}, w.env...), "DEVENV_CACHE="+cache)
	if r := standin.Run(t, dir, env, "lock"); r.Code != 0 {
		t.Fatalf("lock: exit %d\n%s", r.Code, r.Stderr)
	}
	blobs, _ := filepath.Glob(filepath.Join(cache, "artifacts", "sha256", "*"))
	if len(blobs) == 0 {
		t.Fatal("lock cached no artifact")
	}
	for _, b := range blobs {
		if err := os.Truncate(b, 3); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(dir, "devenv.lock")); err != nil {
		t.Fatal(err)
	}
	if r := standin.Run(t, dir, env, "lock"); r.Code != 0 {
		t.Fatalf("lock with truncated cache entries: exit %d, want 0 (fetched again)\n%s", r.Code, r.Stderr)
	}
	for _, b := range blobs {
		if sum, err := fileSHA256(b); err != nil || sum != filepath.Base(b) {
			t.Errorf("cache entry %s: sha256 %s (%v) after the relock", b, sum, err)
		}
	}
}

// TestFaultLyingRegistry: a registry mirror whose manifests claim a digest
// their bytes do not hash to is refused by lock (exit 1, naming it), and
// no devenv.lock is written.
func TestFaultLyingRegistry(t *testing.T) {
	t.Parallel()
	deb := standin.Debian(t)
	liar := standin.LyingRegistry(t)
	real := standin.Push(t, deb, liar+"/"+plainBase)
	name := uniqueName("liar")
	dir := standin.Project(t, map[string]string{"devenv.yaml": "name: " + name + "\nservices:\n  box:\n    profile: image\n    image: nvcr.io/" + plainBase +
		"\nmirrors:\n  registries: {nvcr.io: \"" + liar + "\"}\n"})
	r := standin.Run(t, dir, nil, "lock")
	if r.Code != 1 || !strings.Contains(r.Stderr, liar) || !strings.Contains(r.Stderr, "does not hash") || !strings.Contains(r.Stderr, real) {
		t.Fatalf("lock against a lying registry: exit %d, want 1 naming it and the true digest %s\n%s", r.Code, real, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "devenv.lock")); !os.IsNotExist(err) {
		t.Error("lock pinned a lying registry's digest in devenv.lock")
	}
}

// TestFaultMovedProjectIsAdopted: a project up in a directory that is then
// moved (`mv proj proj2`) is brought up from the new directory, which says
// it takes the project over and labels the containers anew, and taken
// down from there; one whose directory was deleted is taken down by a copy
// of its devenv.yaml elsewhere.
func TestFaultMovedProjectIsAdopted(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	box := "services:\n  box:\n    profile: image\n    image: nvcr.io/" + plainBase + "\n    command: [sleep, infinity]\n"
	t.Run("moved", func(t *testing.T) {
		dir, name := w.project(t, box, nil)
		w.must(t, dir, "up")
		moved := dir + "-moved"
		if err := os.Rename(dir, moved); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(moved) })
		r := w.run(t, moved, "up")
		if r.Code != 0 || !strings.Contains(r.Stderr, dir) || !strings.Contains(r.Stderr, "moved or deleted") {
			t.Fatalf("up in the moved directory: exit %d, want 0 saying it takes over from %s\n%s", r.Code, dir, r.Stderr)
		}
		if c := inspect(t, name+"-box"); c.Config.Labels[labels.Dir] != moved || !c.State.Running {
			t.Errorf("after the adoption box is %s, labelled %s=%s, want running in %s", c.State.Status, labels.Dir, c.Config.Labels[labels.Dir], moved)
		}
		w.must(t, moved, "down")
		if c := countObjects(t, name); c.Containers != 0 || c.Networks != 0 {
			t.Errorf("after down in the moved directory: %+v", c)
		}
	})
	t.Run("deleted", func(t *testing.T) {
		dir, name := w.project(t, box, nil)
		w.must(t, dir, "up")
		other := standin.Project(t, map[string]string{"devenv.yaml": readFile(t, filepath.Join(dir, "devenv.yaml"))})
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if r := w.run(t, other, "down"); r.Code != 0 {
			t.Fatalf("down for a deleted directory: exit %d\n%s", r.Code, r.Stderr)
		}
		if c := countObjects(t, name); c.Containers != 0 || c.Networks != 0 {
			t.Errorf("after down for the deleted directory: %+v", c)
		}
	})
}
