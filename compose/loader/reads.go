package loader

import (
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/types"

	"github.com/devenv-dev/devenv/internal/readset"
)

// Recording makes f record in rs what compose-go reads for it (the
// compose files, the project directory's .env, env_file, label_file, the
// Dockerfiles, secret and config files, bind sources); f itself is
// returned. nil records nothing.
func (f *Files) Recording(rs *readset.Set) *Files {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads = rs
	return f
}

// recordRead records the files compose-go read to make proj: its
// compose files, the .env of its working directory (read, or looked
// for), and the host files its services name. Build contexts are
// recorded where the build seals them (images).
func recordRead(rs *readset.Set, proj *types.Project) {
	if rs == nil || proj == nil {
		return
	}
	for _, f := range proj.ComposeFiles {
		rs.File(f)
	}
	rs.File(filepath.Join(proj.WorkingDir, ".env"))
	for _, s := range proj.Services {
		recordService(rs, s)
	}
	for _, s := range proj.Secrets {
		rs.File(s.File)
	}
	for _, c := range proj.Configs {
		rs.File(c.File)
	}
}

func recordService(rs *readset.Set, s types.ServiceConfig) {
	for _, e := range s.EnvFiles {
		rs.File(e.Path)
	}
	for _, l := range s.LabelFiles {
		rs.File(l)
	}
	if b := s.Build; b != nil && b.Dockerfile != "" && b.DockerfileInline == "" {
		df := b.Dockerfile
		if !filepath.IsAbs(df) {
			df = filepath.Join(b.Context, df)
		}
		rs.File(df)
	}
	for _, v := range s.Volumes {
		if v.Type == types.VolumeTypeBind {
			rs.File(v.Source)
		}
	}
}
