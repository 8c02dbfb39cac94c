package plan

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// CheckBindSources refuses, right before the container of s is created,
// a bind source inside project directory dir (as the plan holds it) that
// now leads outside it through a symbolic link: load refused such links
// (envs/spec), but one put there since would give the container, and with
// a writable mount let it change, a directory elsewhere on the host. Paths
// under stateDir (.devenv) are left to statedir.Check, binds outside dir
// are the file's own choice (an absolute path), and a missing source is
// the engine's to report. Whatever creates containers calls it (the
// reconciler today).
func CheckBindSources(dir, stateDir string, s *Service) error {
	if dir == "" {
		return nil
	}
	var root *safefile.Root
	defer func() {
		if root != nil {
			_ = root.Close()
		}
	}()
	for _, m := range s.Container.Mounts {
		if m.Type != engine.MountBind {
			continue
		}
		if _, in := projpath.Within(dir, m.Source); !in {
			continue
		}
		if _, under := projpath.Within(stateDir, m.Source); stateDir != "" && under {
			continue
		}
		if root == nil {
			r, err := safefile.OpenRoot(dir)
			if err != nil {
				return fmt.Errorf("service %q: cannot check its volume sources: %w", s.Name, err)
			}
			root = r
		}
		if _, err := root.Stat(m.Source); errors.Is(err, safefile.ErrOutside) {
			real, _ := filepath.EvalSymlinks(m.Source)
			rel, _ := filepath.Rel(dir, m.Source)
			return fmt.Errorf("service %q: volume source ./%s is now a symbolic link to %s, outside the project directory; "+
				"the container was not created\n\thint: bind the directory itself, or write its absolute path in the file if you mean to share a host directory",
				s.Name, filepath.ToSlash(rel), real)
		}
	}
	return nil
}
