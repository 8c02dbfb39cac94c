package loader

import (
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
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
	errs = append(errs, checkPorts(s, pos)...)
	var warnMounts []string
	out.NamedVolumes, warnMounts = mounts(s, pos)
	out.Warnings = append(out.Warnings, warnMounts...)
	out.Warnings = append(out.Warnings, hostAccess(s, pos)...)
	out.Warnings = append(out.Warnings, unappliedBuildKeys(s, pos)...)
	out.Warnings = append(out.Warnings, devenvLabels(s, pos)...)
	gpu, problems, gpuWarns := gpuWant(s, pos)
	errs = append(errs, problems...)
	out.Warnings = append(out.Warnings, gpuWarns...)
	out.GPU = gpu
	out.DependsOn = dependencies(s)
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

// checkPorts refuses a published port that is not one number: devenv
// publishes one host port per entry.
func checkPorts(s types.ServiceConfig, pos *positions) []string {
	var errs []string
	for _, p := range s.Ports {
		if _, err := strconv.Atoi(p.Published); p.Published != "" && err != nil {
			errs = append(errs, pos.problem(s.Name, "ports", "published port %q is not a single number; devenv publishes one host port per entry, write one entry per port", p.Published))
		}
	}
	return errs
}

// mounts are the named volumes s mounts (sorted, once each), and a
// warning for each bind that hands the container the host; anonymous
// volumes and tmpfs are the SDK's.
func mounts(s types.ServiceConfig, pos *positions) ([]string, []string) {
	var named, warns []string
	seen := map[string]bool{}
	for _, v := range s.Volumes {
		switch {
		case v.Type == types.VolumeTypeBind:
			if what := riskyBind(v.Source); what != "" {
				warns = append(warns, pos.problem(s.Name, "volumes", "volume %s:%s binds %s: the container can take over this machine; mount only what it needs",
					v.Source, v.Target, what))
			}
		case v.Type == types.VolumeTypeVolume && v.Source != "" && !seen[v.Source]:
			seen[v.Source] = true
			named = append(named, v.Source)
		}
	}
	sort.Strings(named)
	return named, warns
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

// dependencies are the services s depends on, sorted. Their conditions
// stay in compose-go's value, which the SDK's start applies as Compose
// does (a one-shot's exit 0 for service_completed_successfully).
func dependencies(s types.ServiceConfig) []string {
	deps := slices.Sorted(maps.Keys(s.DependsOn))
	if len(deps) == 0 {
		return nil
	}
	return deps
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
