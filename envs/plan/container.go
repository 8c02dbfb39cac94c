package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/labels"
)

// DefaultNetworkKey is the key of the project network in a service's
// networks (its engine name is the plan's Network).
const DefaultNetworkKey = compose.DefaultNetwork

// File is a file the plan places in a container: a generated file, which
// the container gets as a compose config with its content (ConfigMode),
// never a bind mount of the host's copy.
type File struct {
	Path string      // absolute path in the container
	Mode fs.FileMode // the host copy's mode (GeneratedMode)
	Data []byte
}

// ConfigMode is the mode of the generated files in the container (the
// host's copies stay GeneratedMode, their owner's only): root-owned and
// readable by every user of the container, not chowned to its user, since
// for a config with a uid or gid the SDK asks the engine to map ownership
// to the container's user, which Docker before 23.0 looks up in the
// host's passwd database (and fails for the image's own "devenv").
const ConfigMode = 0o444

// ConfigName is the project config that holds a service's file at p:
// <service>_<file name>.
func ConfigName(service, p string) string {
	base := strings.NewReplacer(".", "_", "-", "_").Replace(path.Base(p))
	return service + "_" + base
}

// FilesDigest is the sha256 of files: each path, mode and content, in
// path order. Compose leaves a config's content out of its hash, so the
// digest goes in a label (labels.FilesDigest): a changed
// spark-defaults.conf recreates the container.
func FilesDigest(files []File) string {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	h := sha256.New()
	for _, f := range sorted {
		fmt.Fprintf(h, "%s\x00%o\x00%d\x00", f.Path, f.Mode.Perm(), len(f.Data))
		h.Write(f.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// PlaceFiles has svc refer to the project configs of its files, and
// label their digest.
func PlaceFiles(svc *types.ServiceConfig, files []File) {
	svc.Configs = nil
	delete(svc.Labels, labels.FilesDigest)
	if len(files) == 0 {
		return
	}
	for _, f := range files {
		mode := types.FileMode(ConfigMode)
		svc.Configs = append(svc.Configs, types.ServiceConfigObjConfig{Source: ConfigName(svc.Name, f.Path), Target: f.Path, Mode: &mode})
	}
	svc.Labels[labels.FilesDigest] = FilesDigest(files)
}

// environment is env as compose's environment.
func environment(env map[string]string) types.MappingWithEquals {
	if len(env) == 0 {
		return nil
	}
	out := types.MappingWithEquals{}
	for k, v := range env {
		out[k] = &v
	}
	return out
}

// DependsOn is deps as a service's depends_on, each to be started first.
func DependsOn(deps []string) types.DependsOnConfig {
	if len(deps) == 0 {
		return nil
	}
	out := types.DependsOnConfig{}
	for _, d := range deps {
		out[d] = types.ServiceDependency{Condition: types.ServiceConditionStarted, Required: true}
	}
	return out
}

// onNetwork puts svc on the project network under aliases.
func onNetwork(svc *types.ServiceConfig, aliases ...string) {
	svc.Networks = map[string]*types.ServiceNetworkConfig{DefaultNetworkKey: {Aliases: aliases}}
}

// servicePorts are devenv.yaml's ports: on 127.0.0.1 unless an address is
// written, on the same host port as the container's unless one is.
func servicePorts(s *spec.Service) []types.ServicePortConfig {
	var out []types.ServicePortConfig
	for _, pt := range s.Ports {
		host := pt.Host
		if host == 0 {
			host = pt.Container
		}
		ip := pt.HostIP
		if ip == "" {
			ip = compose.DefaultHostIP
		}
		out = append(out, types.ServicePortConfig{Mode: "ingress", HostIP: ip, Target: uint32(pt.Container),
			Published: strconv.Itoa(host), Protocol: pt.Protocol})
	}
	return out
}

// bindVolume is a bind mount of a host path (made when missing, as
// Compose makes it).
func bindVolume(source, target string, readOnly bool) types.ServiceVolumeConfig {
	return types.ServiceVolumeConfig{Type: types.VolumeTypeBind, Source: source, Target: target, ReadOnly: readOnly,
		Bind: &types.ServiceVolumeBind{CreateHostPath: true}}
}

// namedVolume mounts the project's volume key (its engine name is
// VolumeName(project, key)).
func namedVolume(key, target string, readOnly bool) types.ServiceVolumeConfig {
	return types.ServiceVolumeConfig{Type: types.VolumeTypeVolume, Source: key, Target: target, ReadOnly: readOnly,
		Volume: &types.ServiceVolumeVolume{}}
}

// gpuDevices reserves the GPUs of req for svc, as compose's
// deploy.resources.reservations.devices.
func gpuDevices(svc *types.ServiceConfig, req *types.DeviceRequest) {
	if req == nil {
		svc.Deploy = nil
		return
	}
	svc.Deploy = &types.DeployConfig{Resources: types.Resources{Reservations: &types.Resource{Devices: []types.DeviceRequest{*req}}}}
}

// gpuCapabilities are "gpu" and extra, once each, "gpu" first: what
// `docker run --gpus` asks for.
func gpuCapabilities(extra []string) []string {
	out := []string{"gpu"}
	for _, c := range extra {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func healthcheck(h *spec.Healthcheck) *types.HealthCheckConfig {
	if h == nil {
		return nil
	}
	if h.Disable {
		return &types.HealthCheckConfig{Test: types.HealthCheckTest{"NONE"}}
	}
	return check(h.Test, dur(h.Interval), dur(h.Timeout), dur(h.StartPeriod), h.Retries)
}

// check is a healthcheck; a zero duration or retries is the engine's default.
func check(test []string, interval, timeout, startPeriod time.Duration, retries int) *types.HealthCheckConfig {
	out := &types.HealthCheckConfig{Test: types.HealthCheckTest(test), Interval: duration(interval),
		Timeout: duration(timeout), StartPeriod: duration(startPeriod)}
	if retries > 0 {
		r := uint64(retries)
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

func dur(s string) time.Duration {
	d, _ := time.ParseDuration(s)
	return d
}
