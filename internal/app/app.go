// Package app is devenv's application layer: one place where a project is
// opened and taken through the pipeline (spec -> lock -> plan -> reconcile)
// for every command. The CLI turns flags into Options and the methods'
// options, calls one method and renders its typed result; it holds no
// domain logic. The engine, NVML and the machine's facts are injected so
// the layer is testable with enginetest.Fake and gputest's inventories.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/compose/sdk"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/fastup"
	"github.com/devenv-dev/devenv/internal/fetch"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/readset"
	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/devenv-dev/devenv/profiles"
)

// FileName is the project file devenv looks for.
const FileName = fastup.ProjectFile

// Options say which project to open and how to reach the world.
type Options struct {
	File    string // devenv.yaml; empty: Dir/devenv.yaml, else searched upwards from WorkDir
	Dir     string // the project directory; empty: the directory holding File
	WorkDir string // where the search starts; empty: the working directory
	// ProjectName replaces devenv.yaml's name (Compose's -p/--project-name).
	ProjectName string
	// Profiles are the compose profiles --profile enables (Compose's
	// flag): the active selection, before COMPOSE_PROFILES.
	Profiles []string

	Out *ui.Printer // progress, notes and warnings; nil: discarded
	// ExecEvents receives the Compose executor's events (its progress,
	// the watch's messages): the CLI hands the view's renderer
	// (internal/view/execview); nil: dropped.
	ExecEvents engine.ExecEvents

	// Injected access to the world; nil means the real thing.
	Engine func(ctx context.Context) (engine.Engine, error) // default engine.Connect
	GPUs   func() (gpu.Inventory, error)                    // default gpu.Open
	// EngineGPUs reads the GPUs through a remote engine (default: its /info
	// and devenv's probe container, enginegpu).
	EngineGPUs func(ctx context.Context, eng engine.Engine) (gpu.Inventory, error)
	LocalHost  func() doctor.HostFacts // default doctor.LocalHost
	Pinner     lock.Pinner             // default registry.Pinner
	Fetcher    lock.Fetcher            // default the artifact cache
	Catalog    lock.Resolver           // default profiles.Builtin()
	// Machine is the CPU count and memory used when no engine is asked
	// (config, diff, explain, export); nil reads this machine.
	Machine func() (cpus int, memoryBytes int64)
}

// Project is an opened devenv project.
type Project struct {
	Spec *spec.Project
	opts Options
	out  *ui.Printer

	eng    engine.Engine // connected by connect(); nil until then
	exec   *sdk.Executor // made by executor() for an engine that is not its own
	info   *engine.Info  // read by engineFacts(); nil until then
	cache  *fetch.Cache
	host   *hostFacts
	closed bool

	compose *loader.Files // the command's one read of the compose files (composeFiles)
	// fileName is devenv.yaml's name: what the lock is keyed by, whatever
	// run-time name -p or COMPOSE_PROJECT_NAME gave Spec.Name.
	fileName string
	// nameFrom says where Spec.Name came from (projectName), for config.
	nameFrom string
	// reads is what this command read (devenv.yaml, the files it names,
	// compose's, the lock, build inputs, state files, the engine's
	// configuration), recorded where each is read: the inputs of the
	// receipt an up leaves.
	reads *readset.Set
	// opened is the file system's clock in the state directory before
	// devenv.yaml was read (fastup.FSNow): what a receipt's freshness is
	// judged by; zero when there is no state directory yet.
	opened time.Time
}

// Open finds and loads devenv.yaml (strict, every problem at once).
func Open(ctx context.Context, opts Options) (*Project, error) {
	file, dir, err := Find(opts)
	if err != nil {
		return nil, err
	}
	opened := fastup.FSNow(filepath.Join(dir, ".devenv"))
	reads := readset.New()
	reads.File(file)
	data, err := safefile.ReadFile(file, safefile.MaxConfig)
	if errors.Is(err, os.ErrNotExist) {
		return nil, exitcode.Newf(exitcode.Usage, "%s does not exist: run `devenv init` to write one", file)
	}
	if err != nil {
		return nil, exitcode.With(exitcode.Usage, err) // a FIFO, a device, a directory, too large: not a devenv.yaml
	}
	p, err := spec.ParseWith(file, data, dir, spec.ParseOptions{Reads: reads})
	if err != nil {
		return nil, err
	}
	fileName := p.Name
	from, err := projectName(p, opts.withDefaults())
	if err != nil {
		return nil, err
	}
	proj := New(p, opts)
	proj.fileName = fileName
	proj.nameFrom = from
	proj.opened = opened
	proj.reads = reads
	return proj, nil
}

// projectName names p as Compose would, declared names over inferred
// ones: -p (or COMPOSE_PROJECT_NAME), else devenv.yaml's name:, else the
// compose files' top-level name:, else the directory's name (spec's
// default). devenv.yaml is devenv's own file, so its name: wins over a
// compose file's, with a warning when the two differ. It sets p.Name and
// says where the name came from. Only devenv.yaml's name enters the lock
// (asLocked).
func projectName(p *spec.Project, opts Options) (string, error) {
	if opts.ProjectName != "" {
		if err := spec.CheckProjectName(opts.ProjectName); err != nil {
			return "", exitcode.Newf(exitcode.Usage, "-p/--project-name (or COMPOSE_PROJECT_NAME): %v", err)
		}
		p.Name = opts.ProjectName
		return "-p/--project-name or COMPOSE_PROJECT_NAME", nil
	}
	stated, hasName := p.Pos["name"]
	yamlAt := fmt.Sprintf("%s:%d", filepath.Base(p.File), stated.Line)
	decl, err := loader.DeclaredName(p.Compose, p.Dir)
	if err != nil {
		return "", err
	}
	switch {
	case hasName:
		if decl.Name != "" && decl.Name != p.Name {
			opts.Out.Warn("%s names the project %s and %s names it %s: devenv uses %s (devenv.yaml's); remove one of the two, or make them the same, so that devenv and docker compose name one project",
				yamlAt, p.Name, decl.At(p.Dir), decl.Name, p.Name)
		}
		return yamlAt + " (name:)", nil
	case decl.Name != "":
		if err := spec.CheckProjectName(decl.Name); err != nil {
			return "", exitcode.Newf(exitcode.Usage, "%s: name: %v", decl.At(p.Dir), err)
		}
		p.Name = decl.Name
		return decl.At(p.Dir) + " (the compose file's top-level name:)", nil
	}
	return "the directory's name (devenv.yaml has no name:)", nil
}

// New wraps an already loaded project (tests, and callers that parsed
// devenv.yaml themselves).
func New(p *spec.Project, opts Options) *Project {
	opts = opts.withDefaults()
	return &Project{Spec: p, opts: opts, out: opts.Out}
}

// Find says which devenv.yaml and project directory opts name: File, else
// Dir/devenv.yaml, else the nearest devenv.yaml in WorkDir or a parent.
func Find(opts Options) (file, dir string, err error) {
	switch {
	case opts.File != "":
		file, err = filepath.Abs(opts.File)
	case opts.Dir != "":
		file, err = filepath.Abs(filepath.Join(opts.Dir, FileName))
	default:
		file, err = search(opts.WorkDir)
	}
	if err != nil {
		return "", "", err
	}
	if opts.Dir != "" {
		dir, err = filepath.Abs(opts.Dir)
		return file, dir, err
	}
	return file, filepath.Dir(file), nil
}

func search(wd string) (string, error) {
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return "", err
		}
	}
	// the one search, shared with the fast up: both open the same project
	if f := fastup.Nearest(wd); f != "" {
		return f, nil
	}
	return "", exitcode.Newf(exitcode.Usage, "no %s in %s or any parent directory: run `devenv init` to write one, or pass --file", FileName, wd)
}

func (o Options) withDefaults() Options {
	if o.Out == nil {
		o.Out = ui.New(io.Discard, io.Discard, false, false)
	}
	if o.Engine == nil {
		o.Engine = engine.Connect
	}
	if o.GPUs == nil {
		o.GPUs = gpu.Open
	}
	if o.EngineGPUs == nil {
		o.EngineGPUs = openEngineGPUs
	}
	if o.LocalHost == nil {
		o.LocalHost = doctor.LocalHost
	}
	if o.Machine == nil {
		o.Machine = localMachine
	}
	return o
}

// catalog is Options.Catalog, else the built-in one, loaded only now: ps,
// down, logs and exec never need it, and decoding it is most of their CPU.
func (p *Project) catalog() lock.Resolver {
	if p.opts.Catalog != nil {
		return p.opts.Catalog
	}
	return profiles.Builtin()
}

// Close lets go of the engine connection, if one was made.
func (p *Project) Close() {
	if p.eng != nil && !p.closed {
		_ = p.eng.Close() // nothing to do about a connection that does not close
		p.closed = true
	}
}

// StateDir is the project's .devenv directory.
func (p *Project) StateDir() string { return filepath.Join(p.Spec.Dir, ".devenv") }

// LockPath is the project's devenv.lock.
func (p *Project) LockPath() string { return filepath.Join(p.Spec.Dir, lock.FileName) }

// Mirrors are devenv.yaml's mirrors: with the DEVENV_MIRROR_* overrides.
func (p *Project) Mirrors() sources.Mirrors {
	m := p.Spec.Mirrors
	return sources.FromEnv(sources.Mirrors{Registries: m.Registries, Maven: m.Maven, Apache: m.Apache, PyPI: m.PyPI, APT: m.APT}, nil)
}

// Engine connects to the Docker engine (once) for commands that talk to
// running containers (exec, logs, verify, jobs).
func (p *Project) Engine(ctx context.Context) (engine.Engine, error) {
	if err := p.connect(ctx); err != nil {
		return nil, err
	}
	return p.eng, nil
}

func (p *Project) connect(ctx context.Context) error {
	if p.eng != nil {
		return nil
	}
	cfg, meta := fastup.DockerConfigInputs(os.Getenv) // what docker/cli reads to pick the engine
	p.reads.File(cfg)
	p.reads.Tree(meta)
	eng, err := p.opts.Engine(ctx)
	if err != nil {
		return err
	}
	p.eng = eng
	return nil
}

// engineFacts asks the connected engine for its CPUs, memory and runtimes
// (once): they replace this machine's own in the host facts. Only plans
// that depend on the machine need them, and /info is one of the engine's
// slowest answers.
func (p *Project) engineFacts(ctx context.Context) error {
	if p.eng == nil || p.info != nil {
		return nil
	}
	info, err := p.eng.Info(ctx)
	if err != nil {
		return err
	}
	p.info = &info
	p.host = nil // the engine's facts replace the offline ones
	return nil
}

func (p *Project) artifactCache() (*fetch.Cache, error) {
	if p.cache == nil {
		c, err := fetch.DefaultCache()
		if err != nil {
			return nil, err
		}
		p.cache = c
	}
	return p.cache, nil
}
