package plan

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/images"
	"github.com/devenv-dev/devenv/internal/engine"
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
	c := cs.Container
	c.Name = ContainerName(p.Name, cs.Name)
	if cs.ContainerName != "" {
		c.Name = cs.ContainerName // as compose names it; exec, logs and jobs find it by its labels
	}
	c.Labels = Labels(p.Name, cs.Name)
	c.Labels[labels.ComposeFile] = filepath.Base(cs.File)
	c.Network = opts.projectNetwork(p)
	c.Aliases = []string{cs.Name}
	for i, m := range c.Mounts {
		if m.Type == engine.MountVolume && slices.Contains(cs.NamedVolumes, m.Source) {
			c.Mounts[i].Source, _ = composeVolume(p, cs, m.Source)
		}
	}
	ps := &Service{Name: cs.Name, Profile: lock.ComposeProfile, DependsOn: cs.DependsOn, Image: cs.Image, Pull: cs.Image, Generated: map[string][]byte{},
		Compose: &ComposeKeys{Profiles: cs.Profiles, PullPolicy: cs.PullPolicy, Build: cs.Build, Healthy: cs.Healthy, Config: cs.Config}}
	if ls := lf.Service(cs.Name); ls != nil && ls.Base != nil && ls.Base.Ref == cs.Image {
		ps.Image = opts.Mirrors.Image(ls.Base.Pinned())
		ps.Pull = ps.Image
		if ls.Base.Local {
			// no registry has it: run the locked image ID, never pull
			ps.Image, ps.Pull = ls.Base.Digest, ""
		}
	}
	if cs.GPU != nil {
		applyComposeGPU(ps, &c, cs, h, assignment(place, cs.Name))
	}
	if cs.Build != nil {
		planComposeBuild(ps, p, cs, lf.Service(cs.Name), opts)
	}
	c.Image = ps.Image
	ps.Container = c
	ps.ConfigHash = hashOf(c, nil, "")
	ps.Container.Labels[labels.ConfigHash] = ps.ConfigHash
	return ps
}

func applyComposeGPU(ps *Service, c *engine.ContainerSpec, cs compose.Service, h Host, a *gpu.Assignment) {
	ps.WantsGPU, ps.GPURequired = true, true
	if cs.GPU.Runtime {
		// runtime: nvidia serves the GPUs NVIDIA_VISIBLE_DEVICES names, as with compose
		c.Labels[labels.GPUs] = cs.GPU.String()
		return
	}
	req := &engine.GPURequest{All: cs.GPU.All && len(cs.GPU.DeviceIDs) == 0, Count: cs.GPU.Count,
		DeviceIDs: slices.Clone(cs.GPU.DeviceIDs), Driver: cs.GPU.Driver}
	if !req.All && len(req.DeviceIDs) == 0 && a != nil && len(a.Devices) > 0 {
		req.Count, req.DeviceIDs = 0, append([]string(nil), a.Devices...)
	}
	for _, capab := range cs.GPU.Capabilities {
		if capab != "gpu" {
			req.Capabilities = append(req.Capabilities, capab)
		}
	}
	c.GPU = req
	c.Labels[labels.GPUs] = gpuLabel(req)
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
