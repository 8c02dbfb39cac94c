// Package projpath answers one question the same way everywhere: is this
// path inside the project directory? "../x" and "/elsewhere" are outside,
// "..foo" (a file whose name starts with two dots) is inside, and with
// Inside a symbolic link that leads out of the project is outside.
package projpath

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Within reports whether p is dir or below it, comparing the cleaned
// absolute paths only (no file system access), and returns p relative to
// dir with forward slashes ("." for dir itself).
func Within(dir, p string) (string, bool) {
	d, err1 := filepath.Abs(dir)
	a, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(d, a)
	if err != nil || (rel != "." && !filepath.IsLocal(rel)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Inside is Within after resolving symbolic links in both paths, so a link
// in the project that points outside it is outside. Parts of p that do not
// exist yet are kept as written. The relative path returned is the resolved
// one.
func Inside(dir, p string) (string, bool) {
	d, err1 := resolve(dir)
	a, err2 := resolve(p)
	if err1 != nil || err2 != nil {
		return "", false
	}
	return Within(d, a)
}

// resolve makes p absolute and resolves the symbolic links in its longest
// existing prefix.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return abs, nil
	}
	if _, lerr := os.Lstat(abs); lerr == nil {
		// A dangling link: where it points is unknown, so it leads nowhere inside.
		return "", err
	}
	rp, err := resolve(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(abs)), nil
}
