package project

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/labels"
)

// renderCompose is a compose service exactly as compose-go loaded it
// (orig), with devenv's documented overrides (README, "Compose files")
// and nothing else:
//   - the container named as the plan names it (container_name, else
//     <project>-<service>);
//   - devenv's labels added to the file's, and Compose's own labels;
//   - published ports on 127.0.0.1 where the file names no address;
//   - the image pinned by the lock (a service Compose builds keeps its name);
//   - the GPU request from devenv's placement, where it differs from the
//     one written.
//
// A service is on the networks it names, as Compose has it (default when
// it names none).
func renderCompose(pl *plan.Plan, s *plan.Service, orig *compose.Config, opts Options) types.ServiceConfig {
	c := s.Container
	svc := orig.Service // copied; every map or slice changed below is a new one
	svc.Name = s.Name
	svc.CustomLabels = composeLabels(pl, s.Name, opts)
	svc.ContainerName = c.Name
	svc.Labels = types.Labels{}
	maps.Copy(svc.Labels, orig.Service.Labels)
	maps.Copy(svc.Labels, serviceLabels(c))
	if s.Build == nil && s.Image != "" {
		svc.Image = s.Image // pinned by the lock; a build: keeps Compose's image name
	}
	svc.Ports = LocalPorts(orig.Service.Ports)
	if c.GPU != nil {
		svc.Gpus, svc.Deploy = placedGPUs(orig.Service, deviceRequest(c.GPU))
	}
	return svc
}

// composeLabels are what the SDK's own loader puts on every service, so
// the SDK finds the containers it makes and `docker compose ls` names the
// project's files (kept out of the config hash by compose-go: adding one
// recreates no container).
func composeLabels(pl *plan.Plan, service string, opts Options) types.Labels {
	l := types.Labels(labels.Compose(pl.Project, service, opts.WorkingDir, ""))
	delete(l, labels.ComposeConfigHash)
	delete(l, labels.ComposeNumber)
	if opts.ComposeVersion != "" {
		l[labels.ComposeVersion] = opts.ComposeVersion
	}
	if files := configFiles(pl); files != "" {
		l[labels.ComposeConfigFiles] = files
	}
	return l
}

// configFiles are the project's files as Compose names them in
// labels.ComposeConfigFiles: its compose files, absolute and comma-joined,
// or devenv.yaml when it has none; "" for a plan made without its spec.
func configFiles(pl *plan.Plan) string {
	p := pl.Project0
	switch {
	case p == nil:
		return ""
	case len(p.Compose) > 0:
		return strings.Join(p.Compose, ",")
	}
	return p.File
}

// placedGPUs are the service's gpus: and deploy with want as its GPU
// request: the written request is kept as written when it is want (the
// placement pinned nothing), else replaced by want in deploy's
// reservations, devices of other kinds kept.
func placedGPUs(s types.ServiceConfig, want types.DeviceRequest) ([]types.DeviceRequest, *types.DeployConfig) {
	var written []types.DeviceRequest
	for _, g := range s.Gpus {
		// the SDK asks the engine for gpus: with capability gpu added
		if !slices.Contains(g.Capabilities, "gpu") {
			g.Capabilities = append(slices.Clone(g.Capabilities), "gpu")
		}
		written = append(written, g)
	}
	if s.Deploy != nil && s.Deploy.Resources.Reservations != nil {
		for _, d := range s.Deploy.Resources.Reservations.Devices {
			if compose.IsGPURequest(d) {
				written = append(written, d)
			}
		}
	}
	if len(written) == 1 && sameRequest(written[0], want) {
		return s.Gpus, s.Deploy
	}
	deploy := &types.DeployConfig{}
	if s.Deploy != nil {
		*deploy = *s.Deploy
	}
	res := &types.Resource{}
	if r := deploy.Resources.Reservations; r != nil {
		*res = *r
	}
	res.Devices = nil
	if r := deploy.Resources.Reservations; r != nil {
		for _, d := range r.Devices {
			if !compose.IsGPURequest(d) {
				res.Devices = append(res.Devices, d)
			}
		}
	}
	res.Devices = append(res.Devices, want)
	deploy.Resources.Reservations = res
	return nil, deploy
}

// sameRequest: a and b ask the engine for the same devices (compose-go
// writes no count as 0 and all as -1, capabilities in any order).
func sameRequest(a, b types.DeviceRequest) bool {
	norm := func(d types.DeviceRequest) types.DeviceRequest {
		d.Capabilities = slices.Sorted(slices.Values(d.Capabilities))
		if len(d.IDs) == 0 {
			d.IDs = nil
		}
		if len(d.Options) == 0 {
			d.Options = nil
		}
		return d
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

// composeObjects adds the top-level networks, volumes, configs and
// secrets a compose service refers to, as Compose has them, devenv's
// project labels added to the networks and volumes it (through Compose)
// makes. The project network (default) stays devenv's; a volume devenv
// makes itself (External: one of the plan's volumes, under Compose's name
// for it) stays external.
func composeObjects(proj *types.Project, pl *plan.Plan, orig *compose.Config, opts Options) {
	own := types.Labels(plan.Labels(pl.Project, ""))
	for key, n := range orig.Networks {
		if key == DefaultNetwork {
			continue
		}
		if !bool(n.External) {
			n.Labels = withLabels(n.Labels, own)
		}
		proj.Networks[key] = n
	}
	for key, v := range orig.Volumes {
		if !bool(v.External) {
			v.Labels = withLabels(v.Labels, own)
			v.External = types.External(opts.External && slices.Contains(pl.Volumes, v.Name))
		}
		if proj.Volumes == nil {
			proj.Volumes = types.Volumes{}
		}
		proj.Volumes[key] = v
	}
	for key, c := range orig.Configs {
		if proj.Configs == nil {
			proj.Configs = types.Configs{}
		}
		proj.Configs[key] = c
	}
	for key, sec := range orig.Secrets {
		if proj.Secrets == nil {
			proj.Secrets = types.Secrets{}
		}
		proj.Secrets[key] = sec
	}
}

func withLabels(written, own types.Labels) types.Labels {
	out := types.Labels{}
	maps.Copy(out, written)
	maps.Copy(out, own)
	return out
}
