package plan

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"sort"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/images"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/profiles"
)

// composeServices are the services of the project's compose files in the
// active profiles, from files (nil: read now), planned in the same
// network and lifecycle as devenv's own: same labels, names, 127.0.0.1
// ports, and for a compose service that asks for GPUs the same device
// requests and placement.
func composeServices(ctx context.Context, p *spec.Project, files *loader.Files) ([]compose.Service, error) {
	if len(p.Compose) == 0 {
		return nil, nil
	}
	return files.For(p.Compose, p.Dir, p.Name).Services(ctx, nil)
}

func planCompose(p *spec.Project, lf *lock.File, cs compose.Service, place *gpu.Placement, h Host, opts Options) *Service {
	name := ContainerName(p.Name, cs.Name)
	if cs.ContainerName != "" {
		name = cs.ContainerName // as compose names it; exec, logs and jobs find it by its labels
	}
	own := types.Labels(Labels(p.Name, cs.Name))
	own[labels.ComposeFile] = filepath.Base(cs.File)
	ps := &Service{Name: cs.Name, Profile: lock.ComposeProfile, DependsOn: cs.DependsOn, Image: cs.Image, Pull: cs.Image, Generated: map[string][]byte{},
		Compose: &ComposeKeys{Profiles: cs.Profiles, Config: cs.Config}}
	if ls := lf.Service(cs.Name); ls != nil && ls.Base != nil && ls.Base.Ref == cs.Image {
		ps.Image = opts.Mirrors.Image(ls.Base.Pinned())
		ps.Pull = ps.Image
		if ls.Base.Local {
			// no registry has it: run the locked image ID, never pull
			ps.Image, ps.Pull = ls.Base.Digest, ""
		}
	}
	var req *hashGPU
	if cs.GPU != nil {
		req = applyComposeGPU(ps, own, cs, assignment(place, cs.Name))
	}
	if cs.Build != nil {
		planComposeBuild(ps, p, cs, lf.Service(cs.Name), opts)
	}
	ps.Container = composeService(cs, name, own, ps, req)
	form := composeForm(loaded(cs), name, ps.Image, opts.projectNetwork(p), req, func(key string) string {
		if !slices.Contains(cs.NamedVolumes, key) {
			return key
		}
		n, _ := composeVolume(p, cs, key)
		return n
	})
	ps.ConfigHash = hashOf(form, nil, "")
	ps.Container.Labels[labels.ConfigHash] = ps.ConfigHash
	return ps
}

// composeService is the compose service as compose-go loaded it, with
// devenv's documented overrides (README, "Compose files") and nothing
// else:
//   - the container named as the plan names it (container_name, else
//     <project>-<service>);
//   - devenv's labels (own) added to the file's;
//   - published ports on 127.0.0.1 where the file names no address;
//   - the image pinned by the lock (a service Compose builds keeps its name);
//   - the GPU request from devenv's placement, where it differs from the
//     one written.
//
// A service is on the networks it names, as Compose has it (default when
// it names none).
func composeService(cs compose.Service, name string, own types.Labels, ps *Service, req *hashGPU) types.ServiceConfig {
	orig := loaded(cs)
	svc := orig // copied; every map or slice changed below is a new one
	svc.Name = cs.Name
	svc.ContainerName = name
	svc.Labels = types.Labels{}
	maps.Copy(svc.Labels, orig.Labels)
	maps.Copy(svc.Labels, own)
	if ps.Build == nil && ps.Image != "" {
		svc.Image = ps.Image // pinned by the lock; a build: keeps Compose's image name
	}
	svc.Ports = compose.LocalPorts(orig.Ports)
	if req != nil {
		svc.Gpus, svc.Deploy = placedGPUs(orig, deviceRequest(req))
	}
	return svc
}

// loaded is the service as compose-go loaded it (empty for a compose
// service made without compose-go, as some tests make them).
func loaded(cs compose.Service) types.ServiceConfig {
	if cs.Config == nil {
		return types.ServiceConfig{Name: cs.Name}
	}
	return cs.Config.Service
}

// applyComposeGPU is the GPU request of a compose service that asks for
// GPUs, with the devices devenv placed it on when it asked for a count;
// nil for runtime: nvidia, which the engine's runtime serves.
func applyComposeGPU(ps *Service, own types.Labels, cs compose.Service, a *gpu.Assignment) *hashGPU {
	ps.WantsGPU, ps.GPURequired = true, true
	if cs.GPU.Runtime {
		// runtime: nvidia serves the GPUs NVIDIA_VISIBLE_DEVICES names, as with compose
		own[labels.GPUs] = cs.GPU.String()
		return nil
	}
	req := &hashGPU{All: cs.GPU.All && len(cs.GPU.DeviceIDs) == 0, Count: cs.GPU.Count,
		DeviceIDs: slices.Clone(cs.GPU.DeviceIDs), Driver: cs.GPU.Driver}
	if !req.All && len(req.DeviceIDs) == 0 && a != nil && len(a.Devices) > 0 {
		req.Count, req.DeviceIDs = 0, append([]string(nil), a.Devices...)
	}
	for _, capab := range cs.GPU.Capabilities {
		if capab != "gpu" {
			req.Capabilities = append(req.Capabilities, capab)
		}
	}
	own[labels.GPUs] = gpuLabel(deviceRequest(req))
	return req
}

// deviceRequest is a GPU request as compose's
// deploy.resources.reservations.devices entry: `docker run --gpus`
// semantics, capabilities "gpu" first.
func deviceRequest(g *hashGPU) types.DeviceRequest {
	d := types.DeviceRequest{Capabilities: gpuCapabilities(g.Capabilities), Driver: g.Driver, IDs: slices.Clone(g.DeviceIDs)}
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

// planComposeBuild has ps run the image devenv builds for the compose
// service: tagged by the content hash of its context, read once here
// (images.Seal) and sent as read. A build that cannot be read (its
// Dockerfile missing, a device file in its context) is planned as
// Compose's config plans it, with BuildErr saying why for up and build
// to refuse it; it is never dropped.
func planComposeBuild(ps *Service, p *spec.Project, cs compose.Service, ls *lock.Service, opts Options) {
	in := composeBuild(p, cs, ls, opts)
	ps.Build, ps.Pull = in, ""
	hash, err := images.Seal(in)
	if err != nil {
		ps.BuildErr = fmt.Errorf("%s: service %s: build: %w", projectRel(p.Dir, cs.File), cs.Name, err)
		hash = images.UnbuildableTag
	}
	ps.Image = images.Tag(p.Name, cs.Name, hash)
}

// projectRel is file as a path in the project, or as it is outside it.
func projectRel(dir, file string) string {
	if rel, err := filepath.Rel(dir, file); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return file
}

// composeBuild is what a compose service's image is built from, as
// Compose builds it (context, Dockerfile or dockerfile_inline, args,
// target), FROM the images the lock pins for it, through the mirror, and
// tagged with the names Compose tags it with (image:, build.tags).
func composeBuild(p *spec.Project, cs compose.Service, ls *lock.Service, opts Options) *images.Input {
	b := cs.Build
	in := &images.Input{Project: p.Name, Service: cs.Name, Resolved: profiles.Resolved{Profile: profiles.Image}, ProjectDir: p.Dir,
		UserContext: b.Context, UserDockerfileInline: b.Inline, BuildArgs: b.Args, Target: b.Target, Tags: slices.Clone(b.Tags),
		Pins: ls.BuildPins(opts.Mirrors), Reads: opts.Reads}
	if b.Inline == "" {
		in.UserDockerfile = b.DockerfilePath()
	}
	return in
}

func composeNeeds(cs []compose.Service) []gpu.Need {
	var out []gpu.Need
	for _, s := range cs {
		if s.GPU != nil {
			out = append(out, gpu.Need{Service: s.Name, Kind: gpu.KindOther, All: s.GPU.All, Count: s.GPU.Count, IDs: s.GPU.IDs})
		}
	}
	return out
}

func composeVolumes(p *spec.Project, cs []compose.Service) []string {
	var out []string
	for _, s := range cs {
		for _, v := range s.NamedVolumes {
			if name, external := composeVolume(p, s, v); !external {
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// composeVolume is the engine name of the named volume key that compose
// service s mounts, as Compose names it: the top-level volume's own name:
// (external ones used as they are, never made by the project), else
// <project>_<key>.
func composeVolume(p *spec.Project, s compose.Service, key string) (name string, external bool) {
	if s.Config != nil {
		if v, ok := s.Config.Volumes[key]; ok && (bool(v.External) || v.Name != "") {
			if v.Name == "" {
				return key, bool(v.External)
			}
			return v.Name, bool(v.External)
		}
	}
	return VolumeName(p.Name, key), false
}

// projectNetwork is the project network as the compose files declare it
// (networks.default with its own name:, or external), else devenv's,
// named after the project. compose-go names an undeclared default
// <project>_default; devenv keeps the project's name for it (README,
// "devenv and Docker Compose").
func projectNetwork(p *spec.Project, cs []compose.Service) (name string, external bool) {
	for _, s := range cs {
		if s.Config == nil {
			continue
		}
		n, ok := s.Config.Networks[compose.DefaultNetwork]
		if !ok {
			continue
		}
		if bool(n.External) || (n.Name != "" && n.Name != p.Name+"_"+compose.DefaultNetwork) {
			return n.Name, bool(n.External)
		}
	}
	return p.Name, false
}
