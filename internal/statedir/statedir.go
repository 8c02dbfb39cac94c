// Package statedir guards the project's .devenv directory: devenv writes
// there (generated confs, job logs, the Jupyter token) and mounts parts of
// it into containers, so a symbolic link planted anywhere under it would
// make devenv write into, read from, or mount a file elsewhere on the host.
//
// Every access goes through one rooted handle of .devenv (os.Root): .devenv
// itself is looked at from its parent without following it, the handle
// cannot reach outside .devenv whatever a path or link says, and each part
// of the path below is refused when it is a link, even one that stays
// inside. Files are opened without blocking and must be regular files, so
// a FIFO planted as a job log is refused instead of hanging the read.
package statedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// ErrSymlink means a path under .devenv is or passes through a symbolic link.
var ErrSymlink = errors.New("symbolic link under .devenv")

// linkError names the link and where it points.
func linkError(p, target string) error {
	return fmt.Errorf("%s is a symbolic link (to %s): devenv does not read, write or mount links under .devenv, which could lead anywhere on this machine; remove it and run devenv again: %w", p, target, ErrSymlink)
}

// rel returns path relative to stateDir, with forward slashes.
func rel(stateDir, p string) (string, error) {
	r, ok := projpath.Within(stateDir, p)
	if !ok {
		return "", fmt.Errorf("%s is not under the project's .devenv directory %s; devenv only writes and mounts its own files there", p, stateDir)
	}
	return r, nil
}

// openRoot opens stateDir as a root after checking, from its parent and
// without following it, that it is a real directory. A missing stateDir
// gives an error satisfying errors.Is(err, fs.ErrNotExist).
func openRoot(stateDir string) (*os.Root, error) {
	parent, err := os.OpenRoot(filepath.Dir(stateDir))
	if err != nil {
		return nil, err
	}
	defer func() { _ = parent.Close() }()
	base := filepath.Base(stateDir)
	fi, err := parent.Lstat(base)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, _ := parent.Readlink(base)
		return nil, linkError(stateDir, target)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory: devenv keeps its state there; move it away and run devenv again", stateDir)
	}
	return parent.OpenRoot(base)
}

// walk refuses a link at any existing part of r's path rel.
func walk(root *os.Root, stateDir, rel string) error {
	if rel == "." {
		return nil
	}
	cur := ""
	for _, part := range strings.Split(rel, "/") {
		cur = path.Join(cur, part)
		fi, err := root.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("checking %s: %w", filepath.Join(stateDir, cur), err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := root.Readlink(cur)
			return linkError(filepath.Join(stateDir, filepath.FromSlash(cur)), target)
		}
	}
	return nil
}

// Check returns nil when path is stateDir (the project's .devenv) or below
// it, and neither stateDir nor any existing directory or file on the way to
// path is a symbolic link; parts that do not exist yet are fine (devenv
// creates them as real directories).
func Check(stateDir, p string) error {
	r, err := rel(stateDir, p)
	if err != nil {
		return err
	}
	root, err := openRoot(stateDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = root.Close() }()
	return walk(root, stateDir, r)
}

// MkdirAll makes dir (under stateDir, stateDir included) as real
// directories, refusing a symbolic link anywhere on the way, before and
// after creating it.
func MkdirAll(stateDir, dir string) error {
	r, err := rel(stateDir, dir)
	if err != nil {
		return err
	}
	root, err := openRoot(stateDir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(stateDir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		root, err = openRoot(stateDir)
	}
	if err != nil {
		return err
	}
	defer func() { _ = root.Close() }()
	if err := walk(root, stateDir, r); err != nil {
		return err
	}
	if err := root.MkdirAll(r, 0o755); err != nil {
		return err
	}
	return walk(root, stateDir, r)
}

// OpenFile opens path (under stateDir) through the rooted handle after
// refusing links on the way; it opens without blocking and refuses what is
// not a regular file (a FIFO, a device), and a link swapped in after the
// check is refused too (O_NOFOLLOW where the system has it).
func OpenFile(stateDir, p string, flag int, perm os.FileMode) (*os.File, error) {
	r, err := rel(stateDir, p)
	if err != nil {
		return nil, err
	}
	root, err := openRoot(stateDir)
	if err != nil {
		return nil, err
	}
	defer func() { _ = root.Close() }()
	if err := walk(root, stateDir, r); err != nil {
		return nil, err
	}
	f, err := root.OpenFile(r, flag|noFollow|nonBlock, perm)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (it is %s): devenv keeps only regular files under .devenv; remove it and run devenv again", p, safefile.Kind(st.Mode()))
	}
	if err == nil {
		err = walk(root, stateDir, r) // swapped for a link while opening
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file path under stateDir whole (at most limit
// bytes), refusing links on the way and at the file.
func ReadFile(stateDir, p string, limit int64) ([]byte, error) {
	f, err := OpenFile(stateDir, p, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return safefile.ReadAll(p, f, limit)
}

// WriteFile replaces path under stateDir with data (atomicfile: a temporary
// file and a rename, which replaces a link rather than following it), after
// making its directory and refusing links on the way.
func WriteFile(stateDir, p string, data []byte, perm os.FileMode) error {
	if err := MkdirAll(stateDir, filepath.Dir(p)); err != nil {
		return err
	}
	return atomicfile.WriteFile(p, data, perm)
}
