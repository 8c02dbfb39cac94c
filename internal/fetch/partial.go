package fetch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/filelock"
)

// A download is written to a partial file ".download-*" in the cache
// directory, beside its own lock ".download-*.lock" that the downloading
// process holds until the partial is renamed into place or removed. Both
// are made under the cache's lock (.lock), and partials are swept under it
// too, so a partial whose lock is free is provably abandoned: its process
// died (kill -9, a crash, a power cut) before it could remove it.
const (
	partialPrefix = ".download-"
	lockSuffix    = ".lock"
	cacheLock     = ".lock"
)

// abandonedAfter is how old a partial with no lock beside it (written by a
// devenv from before partials had locks) must be to be removed: such a
// partial cannot be proved abandoned, only presumed so after a day.
const abandonedAfter = 24 * time.Hour

// partial sweeps abandoned partial downloads and creates a new partial,
// locked; done closes and removes it (once renamed, only its lock) and
// lets its lock go.
func (c *Cache) partial(ctx context.Context) (*os.File, func(), error) {
	cl, err := filelock.Acquire(ctx, filepath.Join(c.Dir, cacheLock), filelock.Options{NoHolder: true})
	if err != nil {
		return nil, nil, fmt.Errorf("artifact cache %s: %w", c.Dir, err)
	}
	defer func() { _ = cl.Release() }()
	c.sweep()
	tmp, err := os.CreateTemp(c.Dir, partialPrefix+"*")
	if err != nil {
		return nil, nil, err
	}
	lockPath := tmp.Name() + lockSuffix
	own, err := filelock.TryAcquire(lockPath, filelock.Options{NoHolder: true})
	if err != nil {
		_ = tmp.Close()
		_ = os.Remove(tmp.Name())
		return nil, nil, fmt.Errorf("artifact cache %s: %w", c.Dir, err)
	}
	done := func() {
		_ = tmp.Close() // closed already when the download completed
		_ = os.Remove(tmp.Name())
		_ = own.Release() // only after the partial is gone: a free lock says its partial is abandoned
		_ = os.Remove(lockPath)
	}
	return tmp, done, nil
}

// sweep removes the partial downloads no live process owns, and their
// locks; the caller holds the cache's lock. Best effort: what cannot be
// removed now is tried again by the next download.
func (c *Cache) sweep() {
	entries, err := os.ReadDir(c.Dir)
	if err != nil {
		return
	}
	present := map[string]bool{}
	for _, e := range entries {
		present[e.Name()] = true
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, partialPrefix) || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(c.Dir, name)
		if base, isLock := strings.CutSuffix(name, lockSuffix); isLock {
			if !present[base] { // its partial is gone; the owner died before removing its lock
				removeIfFree(path, "")
			}
			continue
		}
		if present[name+lockSuffix] {
			removeIfFree(path+lockSuffix, path)
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > abandonedAfter {
			_ = os.Remove(path)
		}
	}
}

// removeIfFree removes partial (when not "") and lockPath when no process
// holds lockPath.
func removeIfFree(lockPath, partial string) {
	l, err := filelock.TryAcquire(lockPath, filelock.Options{NoHolder: true})
	if err != nil {
		return // held: its download is running
	}
	if partial != "" {
		_ = os.Remove(partial)
	}
	_ = l.Release()
	_ = os.Remove(lockPath)
}
