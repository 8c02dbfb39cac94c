package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/urfave/cli/v2"
)

// FileName is the project file devenv looks for.
const FileName = "devenv.yaml"

func printer(c *cli.Context) *ui.Printer {
	p := ui.New(c.App.Writer, c.App.ErrWriter, boolOpt(c, "json"), boolOpt(c, "debug"))
	p.Verbose = boolOpt(c, "verbose")
	return p
}

// projectFile finds devenv.yaml: --file, else --project-dir/devenv.yaml,
// else the nearest devenv.yaml in this directory or a parent.
func projectFile(c *cli.Context) (string, error) {
	if f := stringOpt(c, "file"); f != "" {
		return filepath.Abs(f)
	}
	if d := stringOpt(c, "project-dir"); d != "" {
		return filepath.Abs(filepath.Join(d, FileName))
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		f := filepath.Join(dir, FileName)
		if _, err := os.Stat(f); err == nil {
			return f, nil
		}
		if filepath.Dir(dir) == dir {
			return "", exitcode.Newf(exitcode.Usage, "no %s in %s or any parent directory: run `devenv init` to write one, or pass --file", FileName, wd)
		}
	}
}

func projectDir(c *cli.Context, file string) (string, error) {
	if d := stringOpt(c, "project-dir"); d != "" {
		return filepath.Abs(d)
	}
	return filepath.Dir(file), nil
}

// loadProject loads and validates devenv.yaml.
func loadProject(c *cli.Context) (*spec.Project, error) {
	file, err := projectFile(c)
	if err != nil {
		return nil, err
	}
	dir, err := projectDir(c, file)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, exitcode.Newf(exitcode.Usage, "%s does not exist: run `devenv init` to write one", file)
	}
	if err != nil {
		return nil, err
	}
	return spec.Parse(file, data, dir)
}

func lockPath(p *spec.Project) string { return filepath.Join(p.Dir, lock.FileName) }

// readLock reads the project's lock; a missing lock is (nil, nil).
func readLock(p *spec.Project) (*lock.File, error) {
	f, err := lock.Read(lockPath(p))
	if errors.Is(err, lock.ErrNoLock) {
		return nil, nil
	}
	return f, err
}

func mirrorsOf(p *spec.Project) sources.Mirrors {
	m := sources.Mirrors{Registries: p.Mirrors.Registries, Maven: p.Mirrors.Maven, Apache: p.Mirrors.Apache, PyPI: p.Mirrors.PyPI}
	return sources.FromEnv(m, nil)
}

func args(c *cli.Context) []string { return c.Args().Slice() }

// checkServices reports names that are not services of the project
// (devenv.yaml's or its compose files').
func checkServices(p *spec.Project, names []string) error {
	for _, n := range names {
		if p.Service(n) == nil && !contains(p.ComposeServices, n) {
			var all []string
			for _, s := range p.Services {
				all = append(all, s.Name)
			}
			all = append(all, p.ComposeServices...)
			return exitcode.Newf(exitcode.Usage, "no service %q in %s (services: %v)", n, filepath.Base(p.File), all)
		}
	}
	return nil
}

var errNotFound = fmt.Errorf("not found")
