package safefile

import (
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/projpath"
)

// LinkOut is devenv's one link rule for every key that names a host file
// or directory for the engine to use (volume bind sources, secrets' and
// configs' file:, env_file, build contexts and Dockerfiles): a path written
// inside the project must not lead outside it through a symbolic link (its
// own or a parent's), since written that way it says "in this project" and
// the container would get a host file elsewhere. A path written outside
// the project (absolute, or "../") is the file's own choice, and a missing
// one is the engine's to report: both pass. It reports where p leads when
// it leads out. The load (envs/spec) and the check right before a
// container is created (envs/plan) both ask it.
func (r *Root) LinkOut(p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	return projpath.LinkOut(r.dir, p)
}
