package loader

import (
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/internal/engine"
)

// convert translates one compose service; problems are errors that make
// the service unusable as written.
func convert(s types.ServiceConfig, pos *positions) (compose.Service, []string) {
	errs, warns := checkKeys(s, pos)
	out := compose.Service{Name: s.Name, File: pos.fileOf(s.Name), Image: s.Image, PullPolicy: s.PullPolicy, Warnings: warns,
		Profiles: slices.Clone(s.Profiles), ContainerName: s.ContainerName}
	out.Build = build(s.Build, s.Image)
	if out.Image == "" && out.Build == nil {
		errs = append(errs, pos.problem(s.Name, "", "has neither image: nor build:; add one"))
	}
	c := engine.ContainerSpec{
		Image:        s.Image,
		Env:          envList(s.Environment),
		Cmd:          []string(s.Command),
		Entrypoint:   []string(s.Entrypoint),
		WorkingDir:   s.WorkingDir,
		User:         s.User,
		Hostname:     s.Hostname,
		Healthcheck:  healthcheck(s.HealthCheck),
		MemoryBytes:  memoryLimit(s),
		ShmSizeBytes: int64(s.ShmSize),
		Tty:          s.Tty,
		OpenStdin:    s.StdinOpen,
	}
	if s.Init != nil {
		c.Init = *s.Init
	}
	composeExtras(s, &c)
	var problems []string
	c.Ports, problems = ports(s, pos)
	errs = append(errs, problems...)
	var warnMounts []string
	c.Mounts, out.NamedVolumes, warnMounts = mounts(s, pos)
	out.Warnings = append(out.Warnings, warnMounts...)
	out.Warnings = append(out.Warnings, hostAccess(s, pos)...)
	out.Warnings = append(out.Warnings, unappliedBuildKeys(s, pos)...)
	out.Warnings = append(out.Warnings, devenvLabels(s, pos)...)
	gpu, problems, gpuWarns := gpuWant(s, pos)
	errs = append(errs, problems...)
	out.Warnings = append(out.Warnings, gpuWarns...)
	if gpu != nil {
		out.GPU = gpu
		c.GPU = gpuRequest(gpu)
	}
	out.Container = c
	out.DependsOn, out.Healthy = dependencies(s)
	out.Networks = networks(s)
	return out, errs
}

func build(b *types.BuildConfig, image string) *compose.Build {
	if b == nil {
		return nil
	}
	out := &compose.Build{Context: b.Context, Dockerfile: b.Dockerfile, Inline: b.DockerfileInline, Target: b.Target}
	if image != "" {
		out.Tags = append(out.Tags, image) // Compose tags the build with image: (api.GetImageNameOrDefault)
	}
	for _, t := range b.Tags {
		if !slices.Contains(out.Tags, t) {
			out.Tags = append(out.Tags, t)
		}
	}
	for k, v := range b.Args {
		if v == nil {
			continue
		}
		if out.Args == nil {
			out.Args = map[string]string{}
		}
		out.Args[k] = *v
	}
	return out
}

// envList renders the environment as sorted KEY=value; a key with no value
// (not set in the environment either) is left out, as compose does.
func envList(env types.MappingWithEquals) []string {
	var out []string
	for k, v := range env {
		if v != nil {
			out = append(out, k+"="+*v)
		}
	}
	sort.Strings(out)
	return out
}

func healthcheck(h *types.HealthCheckConfig) *engine.Healthcheck {
	if h == nil {
		return nil
	}
	if h.Disable || (len(h.Test) > 0 && h.Test[0] == "NONE") {
		return &engine.Healthcheck{Test: []string{"NONE"}}
	}
	out := &engine.Healthcheck{Test: []string(h.Test), Interval: dur(h.Interval), Timeout: dur(h.Timeout),
		StartPeriod: dur(h.StartPeriod)}
	if h.Retries != nil {
		out.Retries = int(*h.Retries)
	}
	return out
}

func dur(d *types.Duration) time.Duration {
	if d == nil {
		return 0
	}
	return time.Duration(*d)
}

// memoryLimit is mem_limit, or deploy.resources.limits.memory when set.
func memoryLimit(s types.ServiceConfig) int64 {
	if s.Deploy != nil && s.Deploy.Resources.Limits != nil && s.Deploy.Resources.Limits.MemoryBytes > 0 {
		return int64(s.Deploy.Resources.Limits.MemoryBytes)
	}
	return int64(s.MemLimit)
}

// ports publishes on 127.0.0.1 unless the file names an address.
func ports(s types.ServiceConfig, pos *positions) ([]engine.PortBinding, []string) {
	var out []engine.PortBinding
	var errs []string
	for _, p := range s.Ports {
		host := 0
		if p.Published != "" {
			n, err := strconv.Atoi(p.Published)
			if err != nil {
				errs = append(errs, pos.problem(s.Name, "ports", "published port %q is not a single number; devenv publishes one host port per entry, write one entry per port", p.Published))
				continue
			}
			host = n
		}
		ip := p.HostIP
		if ip == "" {
			ip = compose.DefaultHostIP
		}
		out = append(out, engine.PortBinding{HostIP: ip, HostPort: host, ContainerPort: int(p.Target), Protocol: p.Protocol})
	}
	return out, errs
}

// mounts translates the binds and named volumes that devenv checks (bind
// sources, volume ownership); anonymous volumes and tmpfs are the SDK's.
func mounts(s types.ServiceConfig, pos *positions) ([]engine.Mount, []string, []string) {
	var out []engine.Mount
	var named, warns []string
	seen := map[string]bool{}
	for _, v := range s.Volumes {
		switch {
		case v.Type == types.VolumeTypeBind:
			out = append(out, engine.Mount{Type: engine.MountBind, Source: v.Source, Target: v.Target, ReadOnly: v.ReadOnly})
			if what := riskyBind(v.Source); what != "" {
				warns = append(warns, pos.problem(s.Name, "volumes", "volume %s:%s binds %s: the container can take over this machine; mount only what it needs",
					v.Source, v.Target, what))
			}
		case v.Type == types.VolumeTypeVolume && v.Source != "":
			out = append(out, engine.Mount{Type: engine.MountVolume, Source: v.Source, Target: v.Target, ReadOnly: v.ReadOnly})
			if !seen[v.Source] {
				seen[v.Source] = true
				named = append(named, v.Source)
			}
		default:
			// anonymous volumes and tmpfs: the Compose SDK mounts them from
			// the rendered service, as Compose does; nothing to translate
		}
	}
	sort.Strings(named)
	return out, named, warns
}

// riskyBind says what a bind source hands the container when it is the
// Docker socket or the host's root, or "".
func riskyBind(source string) string {
	switch path.Clean(filepath.ToSlash(source)) {
	case "/":
		return "the host's whole filesystem"
	case "/var/run/docker.sock", "/run/docker.sock":
		return "the Docker socket (root on the host)"
	}
	return ""
}

func describeVolume(v types.ServiceVolumeConfig) string {
	if v.Type == types.VolumeTypeVolume {
		return "anonymous volume"
	}
	return v.Type
}

// dependencies are the services s depends on and those it waits healthy
// for. Every condition is applied as Compose applies it: the SDK's start
// waits for each one (a one-shot's exit 0 for service_completed_successfully).
func dependencies(s types.ServiceConfig) (deps, healthy []string) {
	for name, d := range s.DependsOn {
		deps = append(deps, name)
		if d.Condition == types.ServiceConditionHealthy {
			healthy = append(healthy, name)
		}
	}
	sort.Strings(deps)
	sort.Strings(healthy)
	return deps, healthy
}

func networks(s types.ServiceConfig) []string {
	var out []string
	for n := range s.Networks {
		if n != "default" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// composeExtras copies the keys the engine applies as compose does:
// restart, ulimits, extra_hosts, expose, runtime, ipc.
func composeExtras(s types.ServiceConfig, c *engine.ContainerSpec) {
	if s.Restart != "no" {
		c.Restart = s.Restart
	}
	names := make([]string, 0, len(s.Ulimits))
	for n := range s.Ulimits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		u := s.Ulimits[n]
		if u == nil {
			continue
		}
		l := engine.Ulimit{Name: n, Soft: int64(u.Soft), Hard: int64(u.Hard)}
		if u.Single != 0 {
			l = engine.Ulimit{Name: n, Soft: int64(u.Single), Hard: int64(u.Single), Single: true}
		}
		c.Ulimits = append(c.Ulimits, l)
	}
	if len(s.ExtraHosts) > 0 {
		c.ExtraHosts = s.ExtraHosts.AsList(":")
		sort.Strings(c.ExtraHosts)
	}
	c.Expose = append([]string(nil), s.Expose...)
	if len(c.Expose) == 0 {
		c.Expose = nil
	}
	c.Runtime = s.Runtime
	c.IpcMode = s.Ipc
}
