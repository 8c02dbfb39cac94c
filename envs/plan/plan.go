// Package plan turns a project, its lock and the host's facts into the
// desired state: one container spec per service with its image recipe, GPU
// request, generated files, labels and config hash. It does no I/O beyond
// reading the project's own files (env_file, requirements) and is what
// `up`, `config` and the exports share.
package plan

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/images"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/readset"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/hashicorp/go-multierror"
)

// Host is what the plan needs to know about the machine.
type Host struct {
	GPUs        *gpu.Host // nil when NVML could not be read
	CPUs        int
	MemoryBytes int64
	// NoGPURuntime is set when the engine is known to have no way to give
	// containers GPUs (no nvidia runtime, no CDI, no toolkit hook): GPU
	// services then fall back to the CPU when `gpu: optional`.
	NoGPURuntime bool
	// OptionalOnCPU plans `gpu: optional` services on the CPU whatever the
	// machine has: exports meant to start on any machine.
	OptionalOnCPU bool
}

// Options steer the plan.
type Options struct {
	Mirrors sources.Mirrors
	// Token is the Jupyter token of this project (kept in .devenv/state).
	Token string
	// StateDir is where generated files live (<project>/.devenv).
	StateDir string
	// ArtifactPath says where the artifact cache keeps the blob with a
	// sha256 (fetch.Cache.Path); nil means StateDir/artifacts.
	ArtifactPath func(sha256hex string) string
	// ImageUser is who the image user of spark-rapids images is (the host
	// user on a local Linux engine, images.HostUser); nil: images.DefaultUser.
	ImageUser *images.UserIDs
	// Remote says the engine runs on another machine: the project directory
	// reaches containers as WorkspaceVolume (devenv syncs it), and bind
	// mounts of this machine's paths are refused.
	Remote bool
	// Ctx stops the plan's long reads (a mirrored event log, the compose
	// files) when it is done, as Ctrl-C does; nil reads to the end.
	Ctx context.Context
	// Compose is the command's read of the project's compose files,
	// shared with the lock check and the port checks; nil reads them for
	// this plan. The plan keeps it (Plan.Compose) for the exports.
	Compose *loader.Files
	// Reads records what the plan reads (image builds' inputs as they
	// are sealed); nil records nothing.
	Reads *readset.Set

	// network is the project network the services join (MakeFor sets it).
	network string
}

// projectNetwork is the network the services join: o.network, else the
// project's name.
func (o Options) projectNetwork(p *spec.Project) string {
	if o.network != "" {
		return o.network
	}
	return p.Name
}

// Context is Ctx, or context.Background when it is nil.
func (o Options) Context() context.Context {
	if o.Ctx == nil {
		return context.Background()
	}
	return o.Ctx
}

// Plan is the desired state of a project.
type Plan struct {
	Project string `json:"project"`
	// Network is the project network (the compose files' `default`): named
	// after the project, or as a compose file's networks.default names it.
	Network string `json:"network"`
	// NetworkExternal: a compose file declares the project network
	// external; it must exist, and devenv neither makes nor labels it.
	NetworkExternal bool            `json:"network_external,omitempty"`
	Volumes         []string        `json:"volumes,omitempty"`
	Services        []*Service      `json:"services"` // dependencies first
	Placement       *gpu.Placement  `json:"placement,omitempty"`
	Warnings        []string        `json:"warnings,omitempty"`
	Lock            *lock.File      `json:"-"`
	Project0        *spec.Project   `json:"-"`
	Mirrors         sources.Mirrors `json:"-"`
	// Compose is the read of Project0's compose files the plan was made
	// from (Options.Compose, or its own): exports read the same.
	Compose *loader.Files `json:"-"`

	// ComposeWarnings are the Warnings about compose keys devenv does not
	// apply: they only change when the compose files do.
	ComposeWarnings []string `json:"-"`
}

// Service is one container to run.
type Service struct {
	Name    string        `json:"name"`
	Profile string        `json:"profile"`
	Image   string        `json:"image"` // what the container runs
	Build   *images.Input `json:"-"`     // nil: no build (a plain image)
	Pull    string        `json:"pull,omitempty"`
	// Container is the service as the Compose project runs it: devenv's
	// own rendered from devenv.yaml, a compose file's as compose-go loaded
	// it with devenv's overrides. compose/project adds only what is the
	// project's (Compose's own labels, the configs' content).
	Container types.ServiceConfig `json:"container"`
	// Files are the files the container gets (generated files), whose
	// content the project's configs hold.
	Files       []File            `json:"files,omitempty"`
	DependsOn   []string          `json:"depends_on,omitempty"`
	ConfigHash  string            `json:"config_hash"`
	CPUFallback bool              `json:"cpu_fallback,omitempty"`
	Reason      string            `json:"reason,omitempty"`
	Endpoints   []Endpoint        `json:"endpoints,omitempty"`
	Generated   map[string][]byte `json:"-"` // file name -> content, under StateDir/generated/<service>/
	Spark       *SparkInfo        `json:"spark,omitempty"`
	GPURequired bool              `json:"gpu_required"`
	WantsGPU    bool              `json:"wants_gpu"`
	Replica     string            `json:"replica,omitempty"` // for standalone workers: the service they belong to
	// Compose holds a compose service's keys that Compose keeps out of its
	// config hash and the project carries as written; nil for devenv's own.
	Compose *ComposeKeys `json:"-"`
	// MissingEnvFile is the env_file (as a project path) that does not
	// exist, and MissingEnvFileAt where devenv.yaml names it
	// ("devenv.yaml:12:5"): the plan leaves its variables out and starting
	// the container is refused (EnvFileError).
	MissingEnvFile   string `json:"missing_env_file,omitempty"`
	MissingEnvFileAt string `json:"-"`
	// BuildErr says why a compose service's build cannot be sent (its
	// Dockerfile is missing, its context holds a device file), naming the
	// compose file: the plan keeps the build, as Compose's config does,
	// and up and build refuse it with this. nil when it can.
	BuildErr error `json:"-"`
}

// ComposeKeys are what a compose service keeps of its compose file: its
// profiles as written (what the exports and config read without a
// project), and compose-go's own value of the service and of the
// top-level objects it refers to (the networks, volumes, configs and
// secrets the project adds).
type ComposeKeys struct {
	Profiles []string
	Config   *compose.Config
}

// EnvFileError says why the service's container cannot be created: its
// env_file is missing. It is nil when there is nothing missing.
func (s *Service) EnvFileError() error {
	if s.MissingEnvFile == "" {
		return nil
	}
	return fmt.Errorf("%s: env_file %q of service %q does not exist; starting the container needs it\n\thint: create it "+
		"(it is usually git-ignored: ask your team for its variables), or remove env_file from devenv.yaml", s.MissingEnvFileAt, s.MissingEnvFile, s.Name)
}

// Endpoint is something a person can open.
type Endpoint struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// Service returns the planned service by name, or nil.
func (p *Plan) Service(name string) *Service {
	for _, s := range p.Services {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Make builds the plan for every service of p on a machine with facts h.
func Make(p *spec.Project, lf *lock.File, h Host, opts Options) (*Plan, error) {
	return MakeFor(p, lf, func() (Host, error) { return h, nil }, opts)
}

// MakeFor is Make asking host for the machine's facts only when the plan
// depends on them (see NeedsHost), with the compose files loaded once for
// both questions.
func MakeFor(p *spec.Project, lf *lock.File, host func() (Host, error), opts Options) (*Plan, error) {
	opts.Compose = opts.Compose.For(p.Compose, p.Dir, p.Name)
	pl := &Plan{Project: p.Name, Network: p.Name, Lock: lf, Project0: p, Mirrors: opts.Mirrors, Compose: opts.Compose}
	composed, err := composeServices(opts.Context(), p, opts.Compose)
	if err != nil {
		return nil, err
	}
	pl.Network, pl.NetworkExternal = projectNetwork(p, composed)
	opts.network = pl.Network
	var h Host
	if needsHost(p, composed) {
		if h, err = host(); err != nil {
			return nil, err
		}
	}
	place, err := placeGPUs(p, h, composeNeeds(composed))
	if err != nil {
		return nil, err
	}
	for _, cs := range composed {
		pl.Services = append(pl.Services, planCompose(p, lf, cs, place, h, opts))
		pl.Warnings = append(pl.Warnings, cs.Warnings...)
		pl.ComposeWarnings = append(pl.ComposeWarnings, cs.Warnings...)
	}
	pl.Placement = place
	if place != nil {
		pl.Warnings = append(pl.Warnings, place.Warnings...)
	}
	var errs *multierror.Error
	for _, s := range order(p) {
		ls := lf.Service(s.Name)
		if ls == nil {
			errs = multierror.Append(errs, fmt.Errorf("service %q is not in devenv.lock: run devenv lock", s.Name))
			continue
		}
		svcs, err := planService(p, s, ls, h, place, opts)
		if err != nil {
			errs = multierror.Append(errs, fmt.Errorf("service %q: %w", s.Name, err))
			continue
		}
		pl.Services = append(pl.Services, svcs...)
	}
	if err := errs.ErrorOrNil(); err != nil {
		return nil, err
	}
	pl.Volumes = uniqueSorted(append(namedVolumes(p), composeVolumes(p, composed)...))
	if opts.Remote && len(p.Services) > 0 {
		pl.Volumes = uniqueSorted(append(pl.Volumes, WorkspaceVolume(p.Name)))
	}
	for _, s := range pl.Services {
		if s.CPUFallback {
			pl.Warnings = append(pl.Warnings, fmt.Sprintf("%s runs on the CPU: %s", s.Name, s.Reason))
		}
		if s.MissingEnvFile != "" && s.Replica == "" {
			pl.Warnings = append(pl.Warnings, fmt.Sprintf("%s: env_file %s does not exist (%s); its variables are left out here, and up needs it",
				s.Name, s.MissingEnvFile, s.MissingEnvFileAt))
		}
		for name := range s.Generated { // up compares the host copy with it, and writes it when it differs
			opts.Reads.File(filepath.Join(GeneratedDir(opts.StateDir, s.Name), name))
		}
	}
	return pl, nil
}

// order returns the services with dependencies first, file order otherwise.
func order(p *spec.Project) []*spec.Service {
	var out []*spec.Service
	done := map[string]bool{}
	var visit func(s *spec.Service)
	visit = func(s *spec.Service) {
		if done[s.Name] {
			return
		}
		done[s.Name] = true
		for _, d := range s.DependsOn {
			if ds := p.Service(d); ds != nil {
				visit(ds)
			}
		}
		out = append(out, s)
	}
	for _, s := range p.Services {
		visit(s)
	}
	return out
}

func namedVolumes(p *spec.Project) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range p.Services {
		for _, v := range s.Volumes {
			if v.Named && !seen[v.Source] {
				seen[v.Source] = true
				out = append(out, VolumeName(p.Name, v.Source))
			}
		}
	}
	sort.Strings(out)
	return out
}

// VolumeName is the engine name of a project's named volume.
func VolumeName(project, name string) string { return project + "_" + name }

// ContainerName is <project>-<service>.
func ContainerName(project, service string) string { return project + "-" + service }

// Labels are the labels of a project's objects.
func Labels(project, service string) map[string]string {
	l := map[string]string{labels.Project: project}
	if service != "" {
		l[labels.Service] = service
	}
	return l
}

func uniqueSorted(in []string) []string {
	sort.Strings(in)
	var out []string
	for i, s := range in {
		if i == 0 || s != in[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// GPUModels is what the driver rule reads of the machine's GPUs: NVML's
// brand and name of each (profiles.Catalog.ResolutionLimit).
func (h Host) GPUModels() []profiles.GPUModel {
	if h.GPUs == nil {
		return nil
	}
	out := make([]profiles.GPUModel, 0, len(h.GPUs.GPUs))
	for _, g := range h.GPUs.GPUs {
		out = append(out, profiles.GPUModel{Brand: g.Brand, Name: g.Name})
	}
	return out
}
