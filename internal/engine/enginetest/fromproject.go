package enginetest

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/hashicorp/go-multierror"
)

// containerOf is the container the fake makes for a service of the
// project, read from the project alone, as the Compose SDK makes one from
// the project it is given: the fake converges the very project devenv
// hands the SDK, not a second description of it. It reads the keys the
// fake's containers keep (what the tests of devenv look at); anonymous
// volumes and tmpfs mounts, which the fake does not model, are left out.
func containerOf(p *types.Project, svc types.ServiceConfig) (engine.ContainerSpec, error) {
	c := engine.ContainerSpec{
		Name:  svc.ContainerName,
		Image: svc.Image, Labels: map[string]string{},
		Env: environment(svc.Environment), Cmd: []string(svc.Command), Entrypoint: []string(svc.Entrypoint),
		WorkingDir: svc.WorkingDir, User: svc.User, Hostname: svc.Hostname,
		Healthcheck: healthcheck(svc.HealthCheck), MemoryBytes: memory(svc), ShmSizeBytes: int64(svc.ShmSize),
		Tty: svc.Tty, OpenStdin: svc.StdinOpen, PidMode: svc.Pid,
		Restart: restart(svc.Restart), Runtime: svc.Runtime, IpcMode: svc.Ipc, Ulimits: ulimits(svc.Ulimits),
	}
	if c.Name == "" {
		c.Name = p.Name + "-" + svc.Name + "-1"
	}
	maps.Copy(c.Labels, svc.Labels)
	maps.Copy(c.Labels, svc.CustomLabels)
	if svc.Init != nil {
		c.Init = *svc.Init
	}
	if len(svc.ExtraHosts) > 0 {
		c.ExtraHosts = svc.ExtraHosts.AsList(":")
		sort.Strings(c.ExtraHosts)
	}
	if len(svc.Expose) > 0 {
		c.Expose = slices.Clone([]string(svc.Expose))
	}
	c.GPU = gpuOf(svc)
	c.Network, c.Aliases = networkOf(p, svc)
	var errs *multierror.Error
	var err error
	c.Ports, err = portsOf(svc.Ports)
	errs = multierror.Append(errs, err)
	c.Mounts, err = mountsOf(p, svc.Volumes)
	errs = multierror.Append(errs, err)
	c.Files, err = filesOf(p, svc.Configs)
	errs = multierror.Append(errs, err)
	if err := errs.ErrorOrNil(); err != nil {
		return engine.ContainerSpec{}, fmt.Errorf("service %s: %w", svc.Name, err)
	}
	return c, nil
}

// environment is the service's environment as KEY=value, sorted; a key
// without a value is passed as KEY (from the environment of whoever runs
// the project, as `docker run -e KEY`).
func environment(env types.MappingWithEquals) []string {
	if len(env) == 0 {
		return nil
	}
	return envList(env)
}

func healthcheck(h *types.HealthCheckConfig) *engine.Healthcheck {
	if h == nil {
		return nil
	}
	if h.Disable || (len(h.Test) > 0 && h.Test[0] == "NONE") {
		return &engine.Healthcheck{Test: []string{"NONE"}}
	}
	out := &engine.Healthcheck{Test: []string(h.Test), Interval: durationOf(h.Interval), Timeout: durationOf(h.Timeout), StartPeriod: durationOf(h.StartPeriod)}
	if h.Retries != nil {
		out.Retries = int(*h.Retries)
	}
	return out
}

func durationOf(d *types.Duration) time.Duration {
	if d == nil {
		return 0
	}
	return time.Duration(*d)
}

// memory is mem_limit, or deploy.resources.limits.memory where set.
func memory(s types.ServiceConfig) int64 {
	if s.Deploy != nil && s.Deploy.Resources.Limits != nil && s.Deploy.Resources.Limits.MemoryBytes > 0 {
		return int64(s.Deploy.Resources.Limits.MemoryBytes)
	}
	return int64(s.MemLimit)
}

func restart(r string) string {
	if r == "no" {
		return ""
	}
	return r
}

func ulimits(ls map[string]*types.UlimitsConfig) []engine.Ulimit {
	var out []engine.Ulimit
	for _, n := range slices.Sorted(maps.Keys(ls)) {
		u := ls[n]
		switch {
		case u == nil:
		case u.Single != 0:
			out = append(out, engine.Ulimit{Name: n, Soft: int64(u.Single), Hard: int64(u.Single), Single: true})
		default:
			out = append(out, engine.Ulimit{Name: n, Soft: int64(u.Soft), Hard: int64(u.Hard)})
		}
	}
	return out
}

// gpuOf is the service's GPU request: gpus:, else the first GPU device
// of deploy.resources.reservations (capabilities "gpu" first, as
// `docker run --gpus`); nil without one.
func gpuOf(s types.ServiceConfig) *engine.GPURequest {
	reqs := slices.Clone(s.Gpus)
	if s.Deploy != nil && s.Deploy.Resources.Reservations != nil {
		reqs = append(reqs, s.Deploy.Resources.Reservations.Devices...)
	}
	for _, r := range reqs {
		if !slices.Contains(r.Capabilities, "gpu") {
			continue
		}
		g := &engine.GPURequest{Driver: r.Driver, DeviceIDs: slices.Clone(r.IDs)}
		switch {
		case len(r.IDs) > 0:
		case r.Count == -1:
			g.All = true
		default:
			g.Count = int(r.Count)
		}
		for _, c := range r.Capabilities {
			if c != "gpu" {
				g.Capabilities = append(g.Capabilities, c)
			}
		}
		if len(r.Options) > 0 {
			g.Options = map[string]string(maps.Clone(r.Options))
		}
		return g
	}
	return nil
}

// networkOf is the engine network the container is attached to (the
// project's default network where the service is on it, else the first
// it names) and its aliases there: the service's name, as Compose gives
// it, then those written.
func networkOf(p *types.Project, s types.ServiceConfig) (string, []string) {
	if len(s.Networks) == 0 {
		return "", nil
	}
	key := "default"
	if _, ok := s.Networks[key]; !ok {
		key = slices.Sorted(maps.Keys(s.Networks))[0]
	}
	name := key
	if n, ok := p.Networks[key]; ok && n.Name != "" {
		name = n.Name
	}
	aliases := []string{s.Name} // Compose's implicit alias: the service's name
	if cfg := s.Networks[key]; cfg != nil {
		for _, a := range cfg.Aliases {
			if !slices.Contains(aliases, a) {
				aliases = append(aliases, a)
			}
		}
	}
	return name, aliases
}

func portsOf(ports []types.ServicePortConfig) ([]engine.PortBinding, error) {
	var out []engine.PortBinding
	var errs *multierror.Error
	for _, p := range ports {
		host := 0
		if p.Published != "" {
			n, err := strconv.Atoi(p.Published)
			if err != nil {
				errs = multierror.Append(errs, fmt.Errorf("port %q: the fake publishes one host port per entry", p.Published))
				continue
			}
			host = n
		}
		proto := p.Protocol
		if proto == "" {
			proto = "tcp"
		}
		out = append(out, engine.PortBinding{HostIP: p.HostIP, HostPort: host, ContainerPort: int(p.Target), Protocol: proto})
	}
	return out, errs.ErrorOrNil()
}

// mountsOf are the service's bind mounts and named volumes (by their
// engine names).
func mountsOf(p *types.Project, vols []types.ServiceVolumeConfig) ([]engine.Mount, error) {
	var out []engine.Mount
	var errs *multierror.Error
	for _, v := range vols {
		switch {
		case v.Type == types.VolumeTypeBind:
			out = append(out, engine.Mount{Type: engine.MountBind, Source: v.Source, Target: v.Target, ReadOnly: v.ReadOnly})
		case v.Type == types.VolumeTypeVolume && v.Source != "":
			name := v.Source
			if d, ok := p.Volumes[v.Source]; ok && d.Name != "" {
				name = d.Name
			} else if !ok {
				errs = multierror.Append(errs, fmt.Errorf("volume %s is not one of the project's volumes", v.Source))
				continue
			}
			out = append(out, engine.Mount{Type: engine.MountVolume, Source: name, Target: v.Target, ReadOnly: v.ReadOnly})
		}
	}
	return out, errs.ErrorOrNil()
}

// filesOf are the service's configs that have their content in the
// project (devenv's generated files), placed where the service says.
func filesOf(p *types.Project, refs []types.ServiceConfigObjConfig) ([]engine.File, error) {
	var out []engine.File
	var errs *multierror.Error
	for _, r := range refs {
		cfg, ok := p.Configs[r.Source]
		if !ok {
			errs = multierror.Append(errs, fmt.Errorf("config %s is not one of the project's configs", r.Source))
			continue
		}
		if cfg.Content == "" && cfg.File != "" {
			continue // a compose file's config from a file: the SDK's, not modelled
		}
		f := engine.File{Path: r.Target, Mode: 0o444, Data: []byte(cfg.Content)}
		if r.Mode != nil {
			f.Mode = os.FileMode(*r.Mode)
		}
		out = append(out, f)
	}
	return out, errs.ErrorOrNil()
}
