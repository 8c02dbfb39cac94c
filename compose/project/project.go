// Package project renders a plan as one Compose project: a compose-go
// types.Project whose services are exactly the containers the plan wants
// (image pinned by the lock, environment, ports on 127.0.0.1 unless an
// address was written, volumes, healthchecks, devenv's labels, GPU device
// reservations from devenv's placement, generated files as `configs:` with
// `content:`).
//
// It is the value the Compose SDK runs and `docker compose -p NAME` sees.
// Compose's config hash of each rendered service is what compose-go's own
// loader computes from the same service written as YAML (the golden test
// holds that), so a container devenv made and one `docker compose` made
// from the same file are the same to both. Compose leaves a config's
// content out of its hash, so the digest of the files goes in a label
// (labels.FilesDigest): a changed spark-defaults.conf recreates the
// container.
package project

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/hashicorp/go-multierror"
)

// DefaultNetwork is the key of the project network in the project's
// networks; its engine name is the plan's network (the project name).
const DefaultNetwork = compose.DefaultNetwork

// Options say where the project lives.
type Options struct {
	// WorkingDir is the project directory (devenv.yaml's).
	WorkingDir string
	// External marks the network and volumes as external: devenv makes
	// them (with its ownership checks and repairs) before Compose runs the
	// project, and Compose uses them as they are.
	External bool
	// ComposeVersion is the Compose SDK's version (compose/sdk.Version),
	// which every service's container carries as Compose's own does in
	// com.docker.compose.version; "" leaves the label out.
	ComposeVersion string
}

// FromPlan renders pl as a Compose project. Every problem is reported at
// once, each naming its service.
func FromPlan(pl *plan.Plan, opts Options) (*types.Project, error) {
	proj := &types.Project{
		Name:       pl.Project,
		WorkingDir: opts.WorkingDir,
		Services:   types.Services{},
		Networks:   types.Networks{DefaultNetwork: projectNetwork(pl, opts)},
	}
	vols := volumeKeys(pl)
	if len(vols) > 0 {
		proj.Volumes = types.Volumes{}
		for key, name := range vols {
			proj.Volumes[key] = types.VolumeConfig{Name: name, Labels: types.Labels(plan.Labels(pl.Project, "")), External: types.External(opts.External)}
		}
	}
	var errs *multierror.Error
	for _, s := range pl.Services {
		if s.Compose != nil && s.Compose.Config != nil {
			proj.Services[s.Name] = renderCompose(pl, s, s.Compose.Config, opts)
			composeObjects(proj, pl, s.Compose.Config, opts)
			continue
		}
		svc, configs, err := renderService(pl, s, vols, opts)
		if err != nil {
			errs = multierror.Append(errs, fmt.Errorf("service %s: %w", s.Name, err))
			continue
		}
		proj.Services[s.Name] = svc
		for name, c := range configs {
			if proj.Configs == nil {
				proj.Configs = types.Configs{}
			}
			proj.Configs[name] = c
		}
	}
	if err := errs.ErrorOrNil(); err != nil {
		return nil, err
	}
	return proj, nil
}

// projectNetwork is the project network (default): made by devenv (or by
// Compose) with devenv's labels, or, where a compose file declares it
// external, used as it is.
func projectNetwork(pl *plan.Plan, opts Options) types.NetworkConfig {
	if pl.NetworkExternal {
		return types.NetworkConfig{Name: pl.Network, External: true}
	}
	return types.NetworkConfig{Name: pl.Network, Labels: types.Labels(plan.Labels(pl.Project, "")), External: types.External(opts.External)}
}

// volumeKeys maps each named volume's key in the project (its name without
// the project prefix) to its engine name.
func volumeKeys(pl *plan.Plan) map[string]string {
	declared := map[string]bool{} // a compose volume with its own name: composeObjects adds it under its key
	for _, s := range pl.Services {
		if s.Compose != nil && s.Compose.Config != nil {
			for key, v := range s.Compose.Config.Volumes {
				declared[v.Name] = v.Name != plan.VolumeName(pl.Project, key)
			}
		}
	}
	out := map[string]string{}
	for _, name := range pl.Volumes {
		if !declared[name] {
			out[volumeKey(pl.Project, name)] = name
		}
	}
	return out
}

func volumeKey(project, name string) string {
	if k, ok := strings.CutPrefix(name, project+"_"); ok && k != "" {
		return k
	}
	return name
}

func renderService(pl *plan.Plan, s *plan.Service, vols map[string]string, opts Options) (types.ServiceConfig, types.Configs, error) {
	c := s.Container
	svc := types.ServiceConfig{Name: s.Name}
	svc.CustomLabels = composeLabels(pl, s.Name, opts)
	svc.ContainerName = c.Name
	svc.DependsOn = dependsOn(s.DependsOn)
	// compose-go embeds most fields (its container-spec layering): they
	// are set one by one, not in the literal
	svc.Image = c.Image
	svc.Labels = serviceLabels(c)
	if s.Replica != "" {
		svc.Labels[labels.ReplicaOf] = s.Replica
	}
	svc.Environment = environment(c.Env)
	svc.Command = types.ShellCommand(c.Cmd)
	svc.Entrypoint = types.ShellCommand(c.Entrypoint)
	svc.WorkingDir = c.WorkingDir
	svc.User = c.User
	svc.Hostname = c.Hostname
	svc.HealthCheck = healthcheck(c.Healthcheck)
	svc.MemLimit = types.UnitBytes(c.MemoryBytes)
	svc.ShmSize = types.UnitBytes(c.ShmSizeBytes)
	svc.Tty = c.Tty
	svc.StdinOpen = c.OpenStdin
	if c.Init {
		svc.Init = &c.Init
	}
	composeExtras(c, &svc)
	if s.Compose != nil {
		composeKeys(s.Compose, &svc)
	} else if s.Build != nil || s.Pull == "" {
		// devenv builds the image (or runs a locked local image ID): never pull it
		svc.PullPolicy = types.PullPolicyNever
	}
	var errs *multierror.Error
	ports, err := servicePorts(c.Ports)
	errs = multierror.Append(errs, err)
	svc.Ports = ports
	volumes, err := serviceVolumes(pl.Project, c.Mounts, vols)
	errs = multierror.Append(errs, err)
	svc.Volumes = volumes
	if c.Network != "" {
		net := &types.ServiceNetworkConfig{Aliases: slices.Clone(c.Aliases)}
		svc.Networks = map[string]*types.ServiceNetworkConfig{DefaultNetwork: net}
	}
	if c.GPU != nil {
		svc.Deploy = &types.DeployConfig{Resources: types.Resources{Reservations: &types.Resource{
			Devices: []types.DeviceRequest{deviceRequest(c.GPU)},
		}}}
	}
	configs, refs := serviceConfigs(s.Name, c.Files)
	svc.Configs = refs
	if err := errs.ErrorOrNil(); err != nil {
		return types.ServiceConfig{}, nil, err
	}
	return svc, configs, nil
}

// serviceLabels are the container's labels plus the digest of its files.
func serviceLabels(c engine.ContainerSpec) types.Labels {
	out := types.Labels{}
	for k, v := range c.Labels {
		out[k] = v
	}
	if len(c.Files) > 0 {
		out[labels.FilesDigest] = FilesDigest(c.Files)
	}
	return out
}

// FilesDigest is the sha256 of files: each path, mode and content, in path order.
func FilesDigest(files []engine.File) string {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b engine.File) int { return strings.Compare(a.Path, b.Path) })
	h := sha256.New()
	for _, f := range sorted {
		fmt.Fprintf(h, "%s\x00%o\x00%d\x00", f.Path, f.Mode.Perm(), len(f.Data))
		h.Write(f.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func environment(env []string) types.MappingWithEquals {
	if len(env) == 0 {
		return nil
	}
	out := types.MappingWithEquals{}
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			out[k] = nil // passed from devenv's own environment, as `docker run -e K`
			continue
		}
		out[k] = &v
	}
	return out
}

func dependsOn(deps []string) types.DependsOnConfig {
	if len(deps) == 0 {
		return nil
	}
	out := types.DependsOnConfig{}
	for _, d := range deps {
		out[d] = types.ServiceDependency{Condition: types.ServiceConditionStarted, Required: true}
	}
	return out
}

func servicePorts(ports []engine.PortBinding) ([]types.ServicePortConfig, error) {
	var (
		out  []types.ServicePortConfig
		errs *multierror.Error
	)
	for _, p := range ports {
		if p.ContainerPort <= 0 || p.ContainerPort > 65535 {
			errs = multierror.Append(errs, fmt.Errorf("port %d: a container port is 1 to 65535", p.ContainerPort))
			continue
		}
		pc := types.ServicePortConfig{
			Mode:     "ingress",
			HostIP:   p.HostIP,
			Target:   uint32(p.ContainerPort),
			Protocol: protocol(p.Protocol),
		}
		if p.HostPort != 0 {
			pc.Published = strconv.Itoa(p.HostPort)
		}
		out = append(out, pc)
	}
	return out, errs.ErrorOrNil()
}

func protocol(p string) string {
	if p == "" {
		return "tcp"
	}
	return p
}

func serviceVolumes(project string, mounts []engine.Mount, vols map[string]string) ([]types.ServiceVolumeConfig, error) {
	var (
		out  []types.ServiceVolumeConfig
		errs *multierror.Error
	)
	for _, m := range mounts {
		v := types.ServiceVolumeConfig{Type: m.Type, Source: m.Source, Target: m.Target, ReadOnly: m.ReadOnly}
		switch m.Type {
		case engine.MountBind:
			v.Bind = &types.ServiceVolumeBind{CreateHostPath: true}
		case engine.MountVolume:
			key := volumeKey(project, m.Source)
			if _, ok := vols[key]; !ok {
				errs = multierror.Append(errs, fmt.Errorf("volume %s at %s is not one of the project's volumes", m.Source, m.Target))
				continue
			}
			v.Source = key
			v.Volume = &types.ServiceVolumeVolume{}
		default:
			errs = multierror.Append(errs, fmt.Errorf("mount %s at %s: type %q is neither bind nor volume", m.Source, m.Target, m.Type))
			continue
		}
		out = append(out, v)
	}
	return out, errs.ErrorOrNil()
}

// deviceRequest is a GPU request as compose's deploy.resources.reservations.devices
// entry: `docker run --gpus` semantics, capabilities "gpu" first.
func deviceRequest(g *engine.GPURequest) types.DeviceRequest {
	d := types.DeviceRequest{
		Capabilities: gpuCapabilities(g.Capabilities),
		Driver:       g.Driver,
		IDs:          slices.Clone(g.DeviceIDs),
	}
	switch {
	case g.All:
		d.Count = -1
	case len(g.DeviceIDs) == 0:
		d.Count = types.DeviceCount(g.Count)
	}
	if len(g.Options) > 0 {
		d.Options = types.Mapping(g.Options)
	}
	return d
}

func gpuCapabilities(extra []string) []string {
	out := []string{"gpu"}
	for _, c := range extra {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func healthcheck(h *engine.Healthcheck) *types.HealthCheckConfig {
	if h == nil {
		return nil
	}
	out := &types.HealthCheckConfig{Test: types.HealthCheckTest(h.Test)}
	out.Interval = duration(h.Interval)
	out.Timeout = duration(h.Timeout)
	out.StartPeriod = duration(h.StartPeriod)
	if h.Retries > 0 {
		r := uint64(h.Retries)
		out.Retries = &r
	}
	return out
}

func duration(d time.Duration) *types.Duration {
	if d == 0 {
		return nil
	}
	v := types.Duration(d)
	return &v
}

// serviceConfigs turns the files devenv places in a container into
// project configs with their content and the service's references to them,
// named <service>_<file name>. They are written root-owned and readable by
// every user of the container (ConfigMode), not chowned to the container's
// user: for a config with a uid or gid the SDK asks the engine to map
// ownership to the container's user, which Docker before 23.0 looks up in
// the host's passwd database (and fails for the image's own "devenv").
func serviceConfigs(service string, files []engine.File) (types.Configs, []types.ServiceConfigObjConfig) {
	if len(files) == 0 {
		return nil, nil
	}
	configs := types.Configs{}
	var refs []types.ServiceConfigObjConfig
	for _, f := range files {
		name := configName(service, f.Path)
		configs[name] = types.ConfigObjConfig{Content: string(f.Data)}
		mode := types.FileMode(ConfigMode)
		refs = append(refs, types.ServiceConfigObjConfig{Source: name, Target: f.Path, Mode: &mode})
	}
	return configs, refs
}

// ConfigMode is the mode of the generated files in the container (the
// host's copies stay plan.GeneratedMode, their owner's only).
const ConfigMode = 0o444

func configName(service, p string) string {
	base := strings.NewReplacer(".", "_", "-", "_").Replace(path.Base(p))
	return service + "_" + base
}

// composeExtras are the compose keys the container spec carries as written:
// restart, ulimits, extra_hosts, expose, runtime, ipc.
func composeExtras(c engine.ContainerSpec, svc *types.ServiceConfig) {
	svc.Restart = c.Restart
	svc.Runtime = c.Runtime
	svc.Ipc = c.IpcMode
	for _, u := range c.Ulimits {
		if svc.Ulimits == nil {
			svc.Ulimits = map[string]*types.UlimitsConfig{}
		}
		l := &types.UlimitsConfig{Soft: int(u.Soft), Hard: int(u.Hard)}
		if u.Single {
			l = &types.UlimitsConfig{Single: int(u.Soft)}
		}
		svc.Ulimits[u.Name] = l
	}
	if len(c.ExtraHosts) > 0 {
		if hosts, err := types.NewHostsList(c.ExtraHosts); err == nil {
			svc.ExtraHosts = hosts
		}
	}
	if len(c.Expose) > 0 {
		svc.Expose = types.StringOrNumberList(slices.Clone(c.Expose))
	}
}

// composeKeys are a compose service's keys that Compose keeps out of its
// config hash, as the file wrote them: profiles, pull_policy, build.
func composeKeys(k *plan.ComposeKeys, svc *types.ServiceConfig) {
	svc.Profiles = slices.Clone(k.Profiles)
	svc.PullPolicy = k.PullPolicy
	for _, d := range k.Healthy {
		if dep, ok := svc.DependsOn[d]; ok {
			dep.Condition = types.ServiceConditionHealthy
			svc.DependsOn[d] = dep
		}
	}
	if b := k.Build; b != nil {
		svc.Build = &types.BuildConfig{Context: b.Context, Dockerfile: b.Dockerfile, Target: b.Target}
		for name, v := range b.Args {
			if svc.Build.Args == nil {
				svc.Build.Args = types.MappingWithEquals{}
			}
			svc.Build.Args[name] = &v
		}
	}
}
