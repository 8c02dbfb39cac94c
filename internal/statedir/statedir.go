// Package statedir guards the project's .devenv directory: devenv writes
// there (generated confs, job logs, the Jupyter token) and mounts parts of
// it into containers, so a symbolic link planted anywhere under it would
// make devenv write into, or mount, a directory elsewhere on the host.
package statedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/internal/projpath"
)

// ErrSymlink means a path under .devenv is or passes through a symbolic link.
var ErrSymlink = errors.New("symbolic link under .devenv")

// Check returns nil when path is stateDir (the project's .devenv) or below
// it, and neither stateDir nor any existing directory or file on the way to
// path is a symbolic link; parts that do not exist yet are fine (devenv
// creates them as real directories).
func Check(stateDir, path string) error {
	rel, ok := projpath.Within(stateDir, path)
	if !ok {
		return fmt.Errorf("%s is not under the project's .devenv directory %s; devenv only writes and mounts its own files there", path, stateDir)
	}
	cur := filepath.Clean(stateDir)
	parts := []string{}
	if rel != "." {
		parts = strings.Split(rel, "/")
	}
	for i := -1; i < len(parts); i++ {
		if i >= 0 {
			cur = filepath.Join(cur, parts[i])
		}
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return fmt.Errorf("checking %s: %w", cur, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(cur)
			return fmt.Errorf("%s is a symbolic link (to %s): devenv does not write to or mount links under .devenv, which could lead anywhere on this machine; remove it and run devenv again: %w", cur, target, ErrSymlink)
		}
	}
	if _, ok := projpath.Inside(filepath.Dir(stateDir), path); !ok {
		return fmt.Errorf("%s resolves outside the project directory; remove what leads there and run devenv again: %w", path, ErrSymlink)
	}
	return nil
}

// MkdirAll makes dir (under stateDir) as real directories, refusing a
// symbolic link anywhere on the way, before and after creating it.
func MkdirAll(stateDir, dir string) error {
	if err := Check(stateDir, dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return Check(stateDir, dir)
}

// OpenFile opens path (under stateDir) after Check, without following a
// symbolic link at the last element (O_NOFOLLOW where the system has it), so
// a link swapped in after the check is refused too.
func OpenFile(stateDir, path string, flag int, perm os.FileMode) (*os.File, error) {
	if err := Check(stateDir, path); err != nil {
		return nil, err
	}
	return os.OpenFile(path, flag|noFollow, perm)
}
