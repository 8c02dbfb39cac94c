// Package lazy moves start-up work to first use. Every package-level
// regexp.MustCompile runs before main, in every devenv command, whether the
// command matches anything or not; lazy.Regexp compiles on first call.
package lazy

import (
	"regexp"
	"sync"
)

// Regexp returns a function yielding expr compiled, compiling it once, on
// the first call; an invalid expr panics there (a bug, caught by tests).
func Regexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
