package remote

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPathSyncerSyncsARule: a develop.watch sync rule sends what changes
// under its path after the start (not what the image already has), to its
// target, skipping its ignore patterns, deleting what goes, and writes no
// manifest into the container; initial_sync sends everything first.
func TestPathSyncerSyncsARule(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/a.py", "a1")
	write(t, dir, "src/b.tmp", "tmp")
	write(t, dir, "src/cache/x", "x")
	write(t, dir, "other.txt", "not in the rule")
	v := newVolume()
	ctx := t.Context()
	s, err := NewPathSyncer(ctx, v, filepath.Join(dir, "src"), "app", "/app/src", []string{"*.tmp", "cache/"}, false)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := s.Sync(ctx)
	if err != nil || !ch.Empty() {
		t.Fatalf("the start sent %+v (%v), want nothing: the image has those files", ch, err)
	}
	write(t, dir, "src/a.py", "a2")
	write(t, dir, "src/c.py", "c")
	write(t, dir, "src/d.tmp", "ignored")
	write(t, dir, "src/cache/y", "ignored")
	ch, err = s.Sync(ctx)
	if err != nil || !slices.Equal(ch.Sent, []string{"a.py", "c.py"}) {
		t.Fatalf("sent %v (%v), want a.py and c.py", ch.Sent, err)
	}
	if string(v.files["/app/src/a.py"]) != "a2" || string(v.files["/app/src/c.py"]) != "c" {
		t.Errorf("the container holds %v", v.files)
	}
	for k := range v.files {
		if filepath.Base(k) == ManifestName {
			t.Errorf("a manifest was written into the container: %s", k)
		}
	}
	if err := os.Remove(filepath.Join(dir, "src", "c.py")); err != nil {
		t.Fatal(err)
	}
	if ch, err = s.Sync(ctx); err != nil || !slices.Equal(ch.Deleted, []string{"c.py"}) {
		t.Fatalf("deleted %v (%v)", ch.Deleted, err)
	}
	if _, ok := v.files["/app/src/c.py"]; ok {
		t.Error("c.py was not removed from the container")
	}

	v2 := newVolume()
	s2, err := NewPathSyncer(ctx, v2, filepath.Join(dir, "src"), "app", "/app/src", []string{"*.tmp", "cache/"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if ch, err := s2.Sync(ctx); err != nil || !slices.Equal(ch.Sent, []string{"a.py"}) {
		t.Errorf("initial_sync sent %v (%v), want a.py", ch.Sent, err)
	}

	v3 := newVolume()
	s3, err := NewPathSyncer(ctx, v3, filepath.Join(dir, "other.txt"), "app", "/etc/other.txt", nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if ch, err := s3.Sync(ctx); err != nil || !slices.Equal(ch.Sent, []string{"other.txt"}) || string(v3.files["/etc/other.txt"]) != "not in the rule" {
		t.Errorf("a file rule sent %v (%v), the container holds %v", ch.Sent, err, v3.files)
	}
	if _, err := NewPathSyncer(ctx, v3, filepath.Join(dir, "src"), "app", "relative/dir", nil, false); err == nil {
		t.Error("a relative target was taken")
	}
}

// TestPathWatcherReportsAndSendsNothing: a restart or rebuild rule's
// watcher reports what changes under its path after the start, skipping
// its ignore patterns, and reports each change once.
func TestPathWatcherReportsAndSendsNothing(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/a.py", "a1")
	write(t, dir, "requirements.txt", "numpy==2.1.0\n")
	ctx := t.Context()
	w, err := NewPathWatcher(filepath.Join(dir, "src"), []string{"*.log"})
	if err != nil {
		t.Fatal(err)
	}
	if ch, err := w.Sync(ctx); err != nil || !ch.Empty() {
		t.Fatalf("the start reported %+v (%v), want nothing", ch, err)
	}
	write(t, dir, "src/run.log", "ignored")
	if ch, err := w.Sync(ctx); err != nil || !ch.Empty() {
		t.Fatalf("an ignored file was reported: %+v (%v)", ch, err)
	}
	write(t, dir, "src/a.py", "a2")
	if ch, err := w.Sync(ctx); err != nil || !slices.Equal(ch.Sent, []string{"a.py"}) {
		t.Fatalf("reported %+v (%v), want a.py", ch, err)
	}
	if ch, err := w.Sync(ctx); err != nil || !ch.Empty() {
		t.Fatalf("a change was reported twice: %+v (%v)", ch, err)
	}
	f, err := NewPathWatcher(filepath.Join(dir, "requirements.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "requirements.txt", "numpy==2.2.0\n")
	write(t, dir, "src/a.py", "a3")
	if ch, err := f.Sync(ctx); err != nil || !slices.Equal(ch.Sent, []string{"requirements.txt"}) {
		t.Fatalf("a file rule reported %+v (%v), want requirements.txt only", ch, err)
	}
	if _, err := NewPathWatcher(filepath.Join(dir, "missing"), nil); err == nil {
		t.Error("a missing path was taken")
	}
}
