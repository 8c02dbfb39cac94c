package plan

import (
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
	for _, src := range hostSources(s) {
		if _, in := projpath.Within(dir, src.path); !in {
			continue
		}
		if _, under := projpath.Within(stateDir, src.path); stateDir != "" && under {
			continue
		}
		if root == nil {
			r, err := safefile.OpenRoot(dir)
			if err != nil {
				return fmt.Errorf("service %q: cannot check its volume sources: %w", s.Name, err)
			}
			root = r
		}
		if real, out := root.LinkOut(src.path); out {
			rel, _ := filepath.Rel(dir, src.path)
			return fmt.Errorf("service %q: %s ./%s is now a symbolic link to %s, outside the project directory; "+
				"the container was not created\n\thint: keep the file or directory itself in the project, or write its absolute path in the file if you mean to share a host path",
				s.Name, src.key, filepath.ToSlash(rel), real)
		}
	}
	return nil
}

// hostSource is a host path the engine gives the container, and the key
// that names it.
type hostSource struct{ key, path string }

// hostSources are the host paths s's container gets: its bind sources,
// and the files of a compose service's secrets and configs (the engine
// bind-mounts them at /run/secrets/<name> and the config's target).
func hostSources(s *Service) []hostSource {
	var out []hostSource
	for _, m := range s.Container.Mounts {
		if m.Type == engine.MountBind {
			out = append(out, hostSource{"volume source", m.Source})
		}
	}
	if s.Compose == nil || s.Compose.Config == nil {
		return out
	}
	c := s.Compose.Config
	for _, r := range c.Service.Secrets {
		if f := c.Secrets[r.Source].File; f != "" {
			out = append(out, hostSource{"secret " + r.Source + " file", f})
		}
	}
	for _, r := range c.Service.Configs {
		if f := c.Configs[r.Source].File; f != "" {
			out = append(out, hostSource{"config " + r.Source + " file", f})
		}
	}
	return out
}
