package fetch

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/filelock"
)

// countingServer serves content at /f and its sha1 at /f.sha1, counting
// downloads of /f.
func countingServer(t *testing.T, content string) (*httptest.Server, *atomic.Int32) {
	s1 := sha1.Sum([]byte(content))
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/f":
			hits.Add(1)
			fmt.Fprint(w, content)
		case "/f.sha1":
			fmt.Fprint(w, hex.EncodeToString(s1[:]))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestACorruptCacheEntryIsFetchedAgain: a blob whose bytes no longer hash to
// its name (truncated, overwritten) is not handed out: Verified and Get
// download it again and the cache holds the right bytes after.
func TestACorruptCacheEntryIsFetchedAgain(t *testing.T) {
	content := "a jar of many bytes"
	corruptions := []struct {
		name    string
		corrupt func(path string) error
	}{
		{"truncated", func(p string) error { return os.Truncate(p, 3) }},
		{"emptied", func(p string) error { return os.Truncate(p, 0) }},
		{"same size, other bytes", func(p string) error { return os.WriteFile(p, []byte("A JAR OF MANY BYTES"), 0o644) }},
	}
	for _, tt := range corruptions {
		t.Run(tt.name, func(t *testing.T) {
			srv, hits := countingServer(t, content)
			c := &Cache{Dir: t.TempDir()}
			sum, path, err := c.Verified(t.Context(), srv.URL+"/f", srv.URL+"/f.sha1", "sha1")
			if err != nil {
				t.Fatal(err)
			}
			for i, read := range []func() (string, error){
				func() (string, error) {
					_, p, err := (&Cache{Dir: c.Dir}).Verified(t.Context(), srv.URL+"/f", srv.URL+"/f.sha1", "sha1")
					return p, err
				},
				func() (string, error) { return (&Cache{Dir: c.Dir}).Get(t.Context(), srv.URL+"/f", sum) },
			} {
				if err := tt.corrupt(path); err != nil {
					t.Fatal(err)
				}
				got, err := read()
				if err != nil {
					t.Fatalf("read %d of a corrupt entry: %v", i, err)
				}
				if b, _ := os.ReadFile(got); string(b) != content {
					t.Fatalf("read %d handed out %q, want the bytes named %s", i, b, sum)
				}
			}
			if n := hits.Load(); n != 3 {
				t.Errorf("downloads: %d, want 3 (the first, then once per corruption)", n)
			}
		})
	}
}

// TestAbandonedPartialDownloadsAreRemoved: a partial download whose owner
// died (its lock is free) is removed by the next download; one whose owner
// still holds its lock is kept, as is anything else in the cache.
func TestAbandonedPartialDownloadsAreRemoved(t *testing.T) {
	srv, _ := countingServer(t, "bytes")
	c := &Cache{Dir: t.TempDir()}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, age time.Duration) string {
		p := filepath.Join(c.Dir, name)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-age)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dead := write(".download-111", 0)
	write(".download-111.lock", 0)
	live := write(".download-222", 0)
	held, err := filelock.TryAcquire(filepath.Join(c.Dir, ".download-222.lock"), filelock.Options{NoHolder: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Release() }()
	oldNoLock := write(".download-333", 2*abandonedAfter) // an older devenv's, long dead
	newNoLock := write(".download-444", 0)                // may be an older devenv's, still running
	if _, _, err := c.Verified(t.Context(), srv.URL+"/f", srv.URL+"/f.sha1", "sha1"); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{dead: false, dead + ".lock": false, live: true, oldNoLock: false, newNoLock: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
