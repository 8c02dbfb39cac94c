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

// ComposeDir is the compose project's directory as `docker compose -f
// files...` takes it without --project-directory: the first file's
// directory (files absolute, or relative to projectDir, devenv.yaml's).
// Compose reads .env there and resolves the relative paths of the files
// against it (an included or extends file's against its own directory);
// with devenv.yaml at a repository's root and the compose file in
// deploy/compose/, that is deploy/compose/. Every reader of compose files
// (compose/loader, devenv.yaml's compose guard) takes it from here.
func ComposeDir(files []string, projectDir string) string {
	if len(files) == 0 {
		return projectDir
	}
	first := files[0]
	if !filepath.IsAbs(first) {
		first = filepath.Join(projectDir, first)
	}
	return filepath.Dir(filepath.Clean(first))
}

// LinkOut is devenv's one rule for every path a compose file names
// (include, extends file, env_file, build context and Dockerfile, bind
// source, secret and config file): a path is read where Compose reads it,
// inside the project directory dir or outside it as written ("../../src",
// "/data"), as Compose allows; only a path written inside the project that
// leads outside it through a symbolic link is refused, since the file it
// shows a teammate is not the one in the project. LinkOut reports that
// case: out is true, with where the link leads (real). Every check of a
// compose path asks it, so the rule is applied the same way to every key.
func LinkOut(dir, p string) (real string, out bool) {
	if _, within := Within(dir, p); !within {
		return "", false // written as outside: Compose's choice, as an absolute path is
	}
	if _, inside := Inside(dir, p); inside {
		return "", false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		real = "a path that cannot be resolved (" + err.Error() + ")"
	}
	return real, true
}
