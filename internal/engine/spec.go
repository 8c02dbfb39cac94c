package engine

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/go-connections/nat"
	"github.com/hashicorp/go-multierror"
)

// createRequest is a ContainerSpec in the Engine API's terms.
type createRequest struct {
	config  *container.Config
	host    *container.HostConfig
	network *network.NetworkingConfig
}

// toCreateRequest translates spec, reporting every problem in it at once.
// It only sets fields that API 1.41 understands.
func toCreateRequest(spec ContainerSpec) (createRequest, error) {
	var errs *multierror.Error
	exposed, bindings, err := portBindings(spec.Ports)
	errs = multierror.Append(errs, err)
	mounts, err := mounts(spec.Mounts)
	errs = multierror.Append(errs, err)
	devices, err := deviceRequests(spec.GPU)
	errs = multierror.Append(errs, err)
	errs = multierror.Append(errs, checkFiles(spec.Files))
	if spec.Image == "" {
		errs = multierror.Append(errs, fmt.Errorf("container %q: no image given", spec.Name))
	}
	if err := errs.ErrorOrNil(); err != nil {
		return createRequest{}, fmt.Errorf("invalid container spec %q: %w", spec.Name, err)
	}
	cfg := &container.Config{
		Image:        spec.Image,
		Labels:       spec.Labels,
		Env:          spec.Env,
		Cmd:          spec.Cmd,
		Entrypoint:   spec.Entrypoint,
		WorkingDir:   spec.WorkingDir,
		User:         spec.User,
		Hostname:     spec.Hostname,
		ExposedPorts: exposed,
		Healthcheck:  healthConfig(spec.Healthcheck),
		Tty:          spec.Tty,
		OpenStdin:    spec.OpenStdin,
	}
	host := &container.HostConfig{
		PortBindings: bindings,
		Mounts:       mounts,
		ShmSize:      spec.ShmSizeBytes,
		PidMode:      container.PidMode(spec.PidMode),
		Resources:    container.Resources{Memory: spec.MemoryBytes, DeviceRequests: devices},
	}
	if spec.Init {
		host.Init = &spec.Init
	}
	req := createRequest{config: cfg, host: host}
	if spec.Network != "" {
		host.NetworkMode = container.NetworkMode(spec.Network)
		req.network = &network.NetworkingConfig{EndpointsConfig: map[string]*network.EndpointSettings{
			spec.Network: {Aliases: spec.Aliases},
		}}
	}
	return req, nil
}

// deviceRequests builds HostConfig.DeviceRequests the way `docker run --gpus`
// does: All is Count -1, a count is Count N, device ids go in DeviceIDs with
// Count 0 (never both), and the capabilities are [["gpu", extras...]].
func deviceRequests(gpu *GPURequest) ([]container.DeviceRequest, error) {
	if gpu == nil {
		return nil, nil
	}
	if err := checkGPURequest(gpu); err != nil {
		return nil, err
	}
	req := container.DeviceRequest{
		Driver:       gpu.Driver,
		DeviceIDs:    slices.Clone(gpu.DeviceIDs),
		Capabilities: [][]string{gpuCapabilities(gpu.Capabilities)},
		Options:      gpu.Options,
	}
	switch {
	case gpu.All:
		req.Count = -1
	case len(gpu.DeviceIDs) == 0:
		req.Count = gpu.Count
	}
	return []container.DeviceRequest{req}, nil
}

// checkGPURequest makes sure exactly one of All, Count and DeviceIDs is set.
func checkGPURequest(gpu *GPURequest) error {
	set := 0
	if gpu.All {
		set++
	}
	if gpu.Count != 0 {
		set++
	}
	if len(gpu.DeviceIDs) > 0 {
		set++
	}
	switch {
	case gpu.Count < 0:
		return fmt.Errorf("GPU count %d is negative: use All for every GPU", gpu.Count)
	case set == 0:
		return fmt.Errorf("GPU request asks for no GPU: set all, a count or device ids, or leave GPUs out")
	case set > 1:
		return fmt.Errorf("GPU request sets more than one of all (%t), count (%d) and device ids (%v): keep one", gpu.All, gpu.Count, gpu.DeviceIDs)
	}
	return nil
}

// gpuCapabilities puts "gpu" first and keeps each extra capability once.
func gpuCapabilities(extra []string) []string {
	caps := []string{"gpu"}
	for _, c := range extra {
		if c != "" && !slices.Contains(caps, c) {
			caps = append(caps, c)
		}
	}
	return caps
}

// portBindings translates published ports, checking their numbers.
func portBindings(ports []PortBinding) (nat.PortSet, nat.PortMap, error) {
	if len(ports) == 0 {
		return nil, nil, nil
	}
	var errs *multierror.Error
	exposed, bindings := nat.PortSet{}, nat.PortMap{}
	for _, p := range ports {
		proto := p.Protocol
		if proto == "" {
			proto = "tcp"
		}
		if proto != "tcp" && proto != "udp" && proto != "sctp" {
			errs = multierror.Append(errs, fmt.Errorf("port %d: protocol %q is not tcp, udp or sctp", p.ContainerPort, p.Protocol))
			continue
		}
		if p.ContainerPort < 1 || p.ContainerPort > 65535 || p.HostPort < 0 || p.HostPort > 65535 {
			errs = multierror.Append(errs, fmt.Errorf("port %d->%d: numbers must be within 1-65535 (host port 0 lets the engine choose)", p.HostPort, p.ContainerPort))
			continue
		}
		port := nat.Port(strconv.Itoa(p.ContainerPort) + "/" + proto)
		exposed[port] = struct{}{}
		binding := nat.PortBinding{HostIP: p.HostIP}
		if p.HostPort != 0 {
			binding.HostPort = strconv.Itoa(p.HostPort)
		}
		bindings[port] = append(bindings[port], binding)
	}
	return exposed, bindings, errs.ErrorOrNil()
}

// mounts translates bind mounts and named volumes.
func mounts(ms []Mount) ([]mount.Mount, error) {
	var errs *multierror.Error
	var out []mount.Mount
	for _, m := range ms {
		switch {
		case m.Type != MountBind && m.Type != MountVolume:
			errs = multierror.Append(errs, fmt.Errorf("mount %q: type %q is not %q or %q", m.Target, m.Type, MountBind, MountVolume))
		case m.Target == "" || m.Source == "":
			errs = multierror.Append(errs, fmt.Errorf("mount %q->%q: both source and target are needed", m.Source, m.Target))
		default:
			out = append(out, mount.Mount{Type: mount.Type(m.Type), Source: m.Source, Target: m.Target, ReadOnly: m.ReadOnly})
		}
	}
	return out, errs.ErrorOrNil()
}

// healthConfig translates a healthcheck; nil keeps the image's own.
func healthConfig(h *Healthcheck) *container.HealthConfig {
	if h == nil {
		return nil
	}
	return &container.HealthConfig{
		Test:        h.Test,
		Interval:    h.Interval,
		Timeout:     h.Timeout,
		StartPeriod: h.StartPeriod,
		Retries:     h.Retries,
	}
}

// Validate reports every problem in spec that would stop Create, without
// asking the engine.
func (spec ContainerSpec) Validate() error {
	_, err := toCreateRequest(spec)
	return err
}

// GPUDeviceRequests returns the device requests Create sends for gpu, as
// Inspect reports them back (nil when gpu is nil).
func GPUDeviceRequests(gpu *GPURequest) ([]DeviceRequest, error) {
	rs, err := deviceRequests(gpu)
	if err != nil {
		return nil, err
	}
	return fromDeviceRequests(rs), nil
}
