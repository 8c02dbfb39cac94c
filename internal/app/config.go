package app

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/hashicorp/go-multierror"
)

// ServiceConfig is one service as devenv will run it.
type ServiceConfig struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Locked   bool              `json:"locked"`
	Resolved profiles.Resolved `json:"resolved"`
	Base     string            `json:"base,omitempty"`
	GPUs     GPUsView          `json:"gpus"`
	GPU      string            `json:"gpu"`
	Memory   string            `json:"memory,omitempty"`
	Ports    []PortView        `json:"ports,omitempty"`
	Volumes  []VolumeView      `json:"volumes,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	EnvFile  string            `json:"env_file,omitempty"` // read at run time; its values are never shown
	Jars     []string          `json:"jars,omitempty"`
	Conf     map[string]string `json:"conf,omitempty"`
	Depends  []string          `json:"depends_on,omitempty"`
	// From the plan on this machine:
	Image       string          `json:"image,omitempty"` // only from a fresh lock
	GPURequest  *GPURequestView `json:"gpu_request,omitempty"`
	CPUFallback bool            `json:"cpu_fallback,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	Spark       *plan.SparkInfo `json:"spark,omitempty"`
}

// Config is the project's fully resolved configuration.
type Config struct {
	Name string `json:"name"`
	// NameFrom says where the name came from: -p, devenv.yaml's name:, a
	// compose file's top-level name: (file:line), or the directory.
	NameFrom string          `json:"name_from,omitempty"`
	Dir      string          `json:"dir"`
	LockNote string          `json:"lock,omitempty"`
	Services []ServiceConfig `json:"services"`
	// Compose are the compose files' services as devenv runs them (the
	// active profiles'), after devenv's own.
	Compose   []ComposeServiceConfig `json:"compose_services,omitempty"`
	Placement *gpu.Placement         `json:"placement,omitempty"` // which GPUs each service gets and how shared GPUs' memory is split
	Warnings  []string               `json:"warnings,omitempty"`
}

// ComposeServiceConfig is a compose file's service as devenv runs it: the
// image it runs (pinned by the lock, through this machine's mirrors, or
// the tag devenv builds for build:), ports with the host address devenv
// publishes them on, mounts, networks, and the labels devenv adds.
type ComposeServiceConfig struct {
	Name     string            `json:"name"`
	File     string            `json:"file"`
	Image    string            `json:"image"`
	Build    bool              `json:"build,omitempty"` // devenv builds Image from the service's build:
	Profiles []string          `json:"profiles,omitempty"`
	Ports    []PortView        `json:"ports,omitempty"`
	Volumes  []VolumeView      `json:"volumes,omitempty"`
	Networks []string          `json:"networks"`
	Labels   map[string]string `json:"labels,omitempty"` // devenv's, on top of the file's
	EnvFiles []string          `json:"env_files,omitempty"`
	Depends  []string          `json:"depends_on,omitempty"`
}

// ServiceNames are the services config shows, devenv's in devenv.yaml's
// order, then the compose files' by name.
func (cfg *Config) ServiceNames() []string {
	out := make([]string, 0, len(cfg.Services)+len(cfg.Compose))
	for _, s := range cfg.Services {
		out = append(out, s.Name)
	}
	for _, s := range cfg.Compose {
		out = append(out, s.Name)
	}
	return out
}

// Config resolves the services named (all when none) with lock's rules and
// positions, takes what devenv.lock pins when it is fresh, and adds what
// the plan decides on this machine (the same plan up runs).
func (p *Project) Config(ctx context.Context, only []string) (*Config, error) {
	if err := p.CheckServices(only); err != nil {
		return nil, err
	}
	lf, err := p.ReadLock()
	if err != nil {
		return nil, err
	}
	cfg := &Config{Name: p.Spec.Name, NameFrom: p.nameFrom, Dir: p.Spec.Dir, LockNote: lockNote(p.Stale(ctx, lf), lf)}
	if cfg.LockNote != "" {
		lf = nil // show what devenv lock would pick now
	}
	if err := p.resolveServices(ctx, cfg, lf, only); err != nil {
		return nil, err
	}
	pl, err := p.Plan(ctx, PlanOptions{Lock: lf, Resolve: lf == nil})
	if err != nil {
		return nil, err
	}
	proj, err := project.FromPlan(pl.Plan, project.Options{WorkingDir: p.Spec.Dir})
	if err != nil {
		return nil, err
	}
	cfg.addPlan(pl, proj)
	cfg.addCompose(pl, proj, only)
	return cfg, nil
}

// addCompose adds the plan's compose services (those named, all when
// none), as proj (the plan rendered) runs them.
func (cfg *Config) addCompose(pl *Planned, proj *types.Project, only []string) {
	for _, ps := range pl.Services {
		if ps.Profile != lock.ComposeProfile || (len(only) > 0 && !slices.Contains(only, ps.Name)) {
			continue
		}
		cfg.Compose = append(cfg.Compose, composeConfig(pl, proj, ps))
	}
	slices.SortFunc(cfg.Compose, func(a, b ComposeServiceConfig) int { return strings.Compare(a.Name, b.Name) })
}

func composeConfig(pl *Planned, proj *types.Project, ps *plan.Service) ComposeServiceConfig {
	svc := proj.Services[ps.Name]
	out := ComposeServiceConfig{Name: ps.Name, File: svc.Labels[labels.ComposeFile], Image: ps.Image, Build: ps.Build != nil,
		Depends: ps.DependsOn, Labels: map[string]string{}}
	for k, v := range svc.Labels {
		if strings.HasPrefix(k, "dev.devenv.") {
			out.Labels[k] = v
		}
	}
	out.Ports = composePorts(ps, svc)
	out.Volumes = composeVolumes(proj, svc)
	if k := ps.Compose; k != nil {
		out.Profiles = k.Profiles
		if k.Config != nil {
			for _, f := range k.Config.Service.EnvFiles {
				out.EnvFiles = append(out.EnvFiles, f.Path)
			}
			out.Networks = slices.Sorted(maps.Keys(k.Config.Service.Networks))
		}
	}
	if len(out.Networks) == 0 {
		out.Networks = []string{"default"}
	}
	for i, n := range out.Networks {
		if n == "default" {
			out.Networks[i] = "default (" + pl.Network + ")"
		}
	}
	return out
}

// LoopbackNote is config's word on a compose port that the file gives no
// host address: Compose publishes it on every address, devenv on 127.0.0.1.
const LoopbackNote = "devenv's default; Compose publishes on every address: write the address (0.0.0.0:...) to have that"

// composeVolumes are the bind mounts and named volumes of a rendered
// compose service, each named volume by its engine name (anonymous
// volumes and tmpfs are left out).
func composeVolumes(proj *types.Project, svc types.ServiceConfig) []VolumeView {
	var out []VolumeView
	for _, v := range svc.Volumes {
		switch {
		case v.Type == types.VolumeTypeBind:
			out = append(out, VolumeView{Source: v.Source, Target: v.Target, ReadOnly: v.ReadOnly})
		case v.Type == types.VolumeTypeVolume && v.Source != "":
			name := v.Source
			if tv, ok := proj.Volumes[v.Source]; ok && tv.Name != "" {
				name = tv.Name
			}
			out = append(out, VolumeView{Source: name, Target: v.Target, ReadOnly: v.ReadOnly, Named: true})
		}
	}
	return out
}

// composePorts are the ports devenv publishes for a compose service (svc,
// rendered), each that the file gives no host address noted as devenv's
// difference.
func composePorts(ps *plan.Service, svc types.ServiceConfig) []PortView {
	var file []types.ServicePortConfig
	if k := ps.Compose; k != nil && k.Config != nil {
		file = k.Config.Service.Ports
	}
	var out []PortView
	for i, p := range project.HostPorts(svc.Ports) {
		v := PortView{HostIP: p.HostIP, HostPort: p.Host, ContainerPort: p.Container, Protocol: p.Protocol}
		if i < len(file) && file[i].HostIP == "" {
			v.Note = LoopbackNote
		}
		out = append(out, v)
	}
	return out
}

func lockNote(stale error, lf *lock.File) string {
	switch {
	case lf == nil:
		return "no devenv.lock: versions below are resolved now and not pinned; run devenv lock"
	case stale != nil:
		return "devenv.lock is stale: " + stale.Error()
	}
	return ""
}

func (p *Project) resolveServices(ctx context.Context, cfg *Config, lf *lock.File, only []string) error {
	lim := p.resolutionDriver(ctx)
	var errs *multierror.Error
	for _, s := range p.Spec.Services {
		if len(only) > 0 && !slices.Contains(only, s.Name) {
			continue
		}
		res, _, err := lock.ResolveLimited(ctx, p.Spec, s, p.catalog(), lim)
		if err != nil {
			errs = multierror.Append(errs, err)
			continue
		}
		sc := ServiceConfig{Name: s.Name, Profile: s.Profile, Resolved: res, GPUs: gpusOf(s.GPUs), GPU: s.GPU, Memory: s.Memory,
			Ports: portsOf(s.Ports), Volumes: volumesOf(s.Volumes), Env: s.Env, EnvFile: s.EnvFile, Jars: s.Jars, Conf: s.Conf, Depends: s.DependsOn}
		if ls := lockedService(lf, s.Name); ls != nil {
			sc.Locked = true
			applyLock(&sc.Resolved, ls)
			sc.Resolved.Deviations = ls.Deviations
			if ls.Base != nil {
				sc.Base = ls.Base.Pinned()
			}
		}
		cfg.Services = append(cfg.Services, sc)
	}
	return errs.ErrorOrNil()
}

func lockedService(lf *lock.File, name string) *lock.Service {
	if lf == nil {
		return nil
	}
	return lf.Service(name)
}

func applyLock(r *profiles.Resolved, ls *lock.Service) {
	v := ls.Versions
	r.Spark, r.Scala, r.ScalaFull, r.Java, r.Python = v.Spark, v.Scala, v.ScalaFull, v.Java, v.Python
	r.Rapids, r.CUDA, r.Release, r.JarClassifier = v.Rapids, v.CUDA, v.Release, v.JarClassifier
	r.Requires = ls.Requires
}

// addPlan adds what the plan decides on this machine: GPU requests,
// placement and memory split, CPU fallback, generated Spark confs, and the
// images when they are pinned.
func (cfg *Config) addPlan(pl *Planned, proj *types.Project) {
	cfg.Placement, cfg.Warnings = pl.Placement, pl.Warnings
	for i := range cfg.Services {
		sc := &cfg.Services[i]
		ps := pl.Service(sc.Name)
		if ps == nil {
			continue
		}
		if pl.From == FromLock {
			sc.Image = ps.Image
		}
		sc.GPURequest, sc.CPUFallback, sc.Reason, sc.Spark = gpuRequestOf(compose.GPURequest(proj.Services[ps.Name])), ps.CPUFallback, ps.Reason, ps.Spark
	}
}

func (p *Project) resolveOne(ctx context.Context, name string) (profiles.Resolved, []string, error) {
	lim := p.resolutionDriver(ctx)
	return lock.ResolveLimited(ctx, p.Spec, p.Spec.Service(name), p.catalog(), lim)
}
