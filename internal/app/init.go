package app

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

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
	if root := sourceCheckout(filepath.Dir(path)); root != "" {
		return nil, exitcode.Newf(exitcode.Usage, "%s is inside devenv's own source checkout (%s): a project's devenv.yaml does not belong there; cd to your project's directory, or pass --project-dir DIR (make demo writes a demo project outside the checkout)", filepath.Dir(path), root)
	}
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

// devenvModule is devenv's own Go module path.
const devenvModule = "github.com/devenv-dev/devenv"

// sourceCheckout returns the directory at or above dir whose go.mod is
// devenv's own module, or "" when there is none.
func sourceCheckout(dir string) string {
	for {
		if goModule(filepath.Join(dir, "go.mod")) == devenvModule {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// goModule is the module path a go.mod declares ("" when path is no
// readable go.mod).
func goModule(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
