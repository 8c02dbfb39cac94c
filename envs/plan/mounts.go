package plan

import (
	"fmt"
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// CheckBindSources refuses, right before the container of svc (a service
// of the compose project the executor runs, proj) is created,
// a bind source inside project directory dir (as the plan holds it) that
// now leads outside it through a symbolic link: load refused such links
// (envs/spec), but one put there since would give the container, and with
// a writable mount let it change, a directory elsewhere on the host. Paths
// under stateDir (.devenv) are left to statedir.Check, binds outside dir
// are the file's own choice (an absolute path), and a missing source is
// the engine's to report. It reads the project the executor is given, so
// what it checks is what the engine will mount. Whatever creates
// containers calls it (the reconciler today).
func CheckBindSources(dir, stateDir string, proj *types.Project, svc types.ServiceConfig) error {
	if dir == "" {
		return nil
	}
	var root *safefile.Root
	defer func() {
		if root != nil {
			_ = root.Close()
		}
	}()
	for _, src := range hostSources(proj, svc) {
		if _, in := projpath.Within(dir, src.path); !in {
			continue
		}
		if _, under := projpath.Within(stateDir, src.path); stateDir != "" && under {
			continue
		}
		if root == nil {
			r, err := safefile.OpenRoot(dir)
			if err != nil {
				return fmt.Errorf("service %q: cannot check its volume sources: %w", svc.Name, err)
			}
			root = r
		}
		if real, out := root.LinkOut(src.path); out {
			rel, _ := filepath.Rel(dir, src.path)
			return fmt.Errorf("service %q: %s ./%s is now a symbolic link to %s, outside the project directory; "+
				"the container was not created\n\thint: keep the file or directory itself in the project, or write its absolute path in the file if you mean to share a host path",
				svc.Name, src.key, filepath.ToSlash(rel), real)
		}
	}
	return nil
}

// hostSource is a host path the engine gives the container, and the key
// that names it.
type hostSource struct{ key, path string }

// hostSources are the host paths svc's container gets: its bind
// sources, and the files of its secrets and configs (the engine
// bind-mounts them at /run/secrets/<name> and the config's target).
func hostSources(proj *types.Project, svc types.ServiceConfig) []hostSource {
	var out []hostSource
	for _, v := range svc.Volumes {
		if v.Type == types.VolumeTypeBind {
			out = append(out, hostSource{"volume source", v.Source})
		}
	}
	for _, r := range svc.Secrets {
		if f := proj.Secrets[r.Source].File; f != "" {
			out = append(out, hostSource{"secret " + r.Source + " file", f})
		}
	}
	for _, r := range svc.Configs {
		if f := proj.Configs[r.Source].File; f != "" {
			out = append(out, hostSource{"config " + r.Source + " file", f})
		}
	}
	return out
}
