package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
)

// tempPrefix is how atomicwriter names its temporary file beside the
// target: ".tmp-" + the target's base name + a random number.
const tempPrefix = ".tmp-"

// SweepTemps removes what writers of dir/base killed before their rename
// left: regular files named ".tmp-<base><digits>". The caller must be the
// only writer of dir/base at the time (it holds the lock that serialises
// them), or a live writer's rename fails. It returns the files removed.
func SweepTemps(dir, base string) []string {
	matches, _ := filepath.Glob(filepath.Join(dir, tempPrefix+globEscape(base)+"*"))
	var removed []string
	for _, m := range matches {
		if !allDigits(strings.TrimPrefix(filepath.Base(m), tempPrefix+base)) {
			continue // another file's temp (base "a", file ".tmp-ab1")
		}
		if removeRegular(m) {
			removed = append(removed, m)
		}
	}
	return removed
}

// SweepDir removes every regular ".tmp-*" file directly in dir: for a
// directory only devenv writes (.devenv), under the lock that serialises
// its writers. It returns the files removed.
func SweepDir(dir string) []string {
	matches, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*"))
	var removed []string
	for _, m := range matches {
		if removeRegular(m) {
			removed = append(removed, m)
		}
	}
	return removed
}

// removeRegular removes p when it is a regular file (a link, a directory or
// a FIFO of that name is left alone: devenv never made it).
func removeRegular(p string) bool {
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	return os.Remove(p) == nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}
