// Package readset records what a command read: files, directory trees,
// build contexts. It is passed explicitly (an options field) to the code
// that reads, which records each input where it reads it, so that the
// no-op up's receipt (internal/fastup) holds what was read rather than a
// list kept apart from the reading. A nil *Set records nothing: callers
// that keep no receipt pass none.
package readset

import (
	"maps"
	"path/filepath"
	"slices"
	"sync"
)

// Set is what was read. It is safe for concurrent use; the zero value is
// empty and ready.
type Set struct {
	mu       sync.Mutex
	files    map[string]bool
	trees    map[string]bool
	skip     map[string]bool
	contexts map[string]bool
}

// New is an empty set.
func New() *Set { return &Set{} }

// File records a file read (or looked for: an absent file is an input
// too, its appearance changes what is read).
func (s *Set) File(path string) {
	if s != nil {
		s.add(&s.files, path)
	}
}

// Tree records a directory read whole (walked, listed): every entry
// below it, hidden directories below the top left out, and skip left out
// whole (a container's writable bind mount inside it: what the container
// writes there is not an input).
func (s *Set) Tree(path string, skip ...string) {
	if s == nil {
		return
	}
	s.add(&s.trees, path)
	for _, k := range skip {
		s.add(&s.skip, k)
	}
}

// Context records a build context as the build sends it: every entry,
// hidden ones included, less what its .dockerignore excludes.
func (s *Set) Context(path string) {
	if s != nil {
		s.add(&s.contexts, path)
	}
}

func (s *Set) add(m *map[string]bool, path string) {
	if path == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[filepath.Clean(path)] = true
}

// Inputs is a set's content, each list sorted.
type Inputs struct {
	Files, Trees, Skip, Contexts []string
}

// Inputs is what s recorded so far (empty for a nil s).
func (s *Set) Inputs() Inputs {
	if s == nil {
		return Inputs{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return Inputs{Files: sorted(s.files), Trees: sorted(s.trees), Skip: sorted(s.skip), Contexts: sorted(s.contexts)}
}

func sorted(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
