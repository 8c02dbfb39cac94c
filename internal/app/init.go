package app

import (
	"os"
	"path/filepath"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// InitOptions steer Init.
type InitOptions struct {
	Dir     string // the project directory; empty: the working directory
	File    string // where to write; empty: Dir/devenv.yaml
	Name    string // project name; empty: the directory's name
	Profile string // spark-rapids, rapids, triton or image
	Force   bool   // replace an existing file
}

// InitResult is the starter file written.
type InitResult struct {
	File    string `json:"file"`
	Profile string `json:"profile"`
	Name    string `json:"name"`
}

// Init writes a commented starter devenv.yaml; it never replaces a file
// without Force.
func Init(o InitOptions) (*InitResult, error) {
	dir, err := filepath.Abs(firstNonEmpty(o.Dir, "."))
	if err != nil {
		return nil, err
	}
	path := firstNonEmpty(o.File, filepath.Join(dir, FileName))
	if _, err := os.Stat(path); err == nil && !o.Force {
		return nil, exitcode.Newf(exitcode.Usage, "%s already exists: edit it, or pass --force to replace it", path)
	}
	name := firstNonEmpty(o.Name, spec.DockerName(filepath.Base(dir)))
	data, err := spec.Starter(name, o.Profile)
	if err != nil {
		return nil, exitcode.With(exitcode.Usage, err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return nil, err
	}
	for _, d := range spec.StarterDirs(o.Profile) {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	return &InitResult{File: path, Profile: o.Profile, Name: name}, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
