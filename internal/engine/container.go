package engine

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/go-connections/nat"
)

// Create creates the container spec describes.
func (d *docker) Create(ctx context.Context, spec ContainerSpec) (string, error) {
	op := fmt.Sprintf("create container %q", spec.Name)
	req, err := toCreateRequest(spec)
	if err != nil {
		return "", err
	}
	resp, err := d.cli.ContainerCreate(ctx, req.config, req.host, req.network, nil, spec.Name)
	if err != nil {
		return "", d.wrap(op, err)
	}
	if len(spec.Files) > 0 {
		if err := d.placeFiles(ctx, resp.ID, spec.Name, spec.Files); err != nil {
			// a container without its files must not be left to be started
			// later as if it were complete: the next up creates it again
			rmCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			if rerr := d.cli.ContainerRemove(rmCtx, resp.ID, container.RemoveOptions{Force: true}); rerr != nil {
				return "", fmt.Errorf("%w (and removing the container it left: %w)", err, d.wrap(op, rerr))
			}
			return "", err
		}
	}
	return resp.ID, nil
}

// Start starts a container.
func (d *docker) Start(ctx context.Context, id string) error {
	err := d.cli.ContainerStart(ctx, id, container.StartOptions{})
	return d.wrap(fmt.Sprintf("start container %q", id), err)
}

// Stop stops a container, giving it timeout to exit before it is killed.
func (d *docker) Stop(ctx context.Context, id string, timeout time.Duration) error {
	secs := int(timeout.Round(time.Second) / time.Second)
	err := d.cli.ContainerStop(ctx, id, container.StopOptions{Timeout: &secs})
	return d.wrap(fmt.Sprintf("stop container %q", id), err)
}

// Inspect reports a container's state and configuration.
func (d *docker) Inspect(ctx context.Context, id string) (ContainerState, error) {
	in, err := d.cli.ContainerInspect(ctx, id)
	if err != nil {
		return ContainerState{}, d.wrap(fmt.Sprintf("inspect container %q", id), err)
	}
	return fromInspect(in), nil
}

// fromInspect keeps what devenv needs of the engine's inspect answer.
func fromInspect(in container.InspectResponse) ContainerState {
	s := ContainerState{ID: in.ID, Name: strings.TrimPrefix(in.Name, "/"), ImageID: in.Image}
	if in.Config != nil {
		s.Image, s.Labels, s.Env, s.Tty = in.Config.Image, in.Config.Labels, in.Config.Env, in.Config.Tty
	}
	if st := in.State; st != nil {
		s.Status, s.Running, s.ExitCode, s.Error = string(st.Status), st.Running, st.ExitCode, st.Error
		s.StartedAt, _ = time.Parse(time.RFC3339Nano, st.StartedAt)
		s.FinishedAt, _ = time.Parse(time.RFC3339Nano, st.FinishedAt)
		if st.Health != nil {
			s.Health = string(st.Health.Status)
		}
	}
	if in.HostConfig != nil {
		s.DeviceRequests = fromDeviceRequests(in.HostConfig.DeviceRequests)
		s.Bindings = fromPortMap(in.HostConfig.PortBindings)
	}
	if in.NetworkSettings != nil {
		s.Ports = fromPortMap(in.NetworkSettings.Ports)
		s.NetworkIDs = map[string]string{}
		for name, ep := range in.NetworkSettings.Networks {
			s.Networks = append(s.Networks, name)
			if ep != nil {
				s.NetworkIDs[name] = ep.NetworkID
			}
		}
		sort.Strings(s.Networks)
	}
	for _, m := range in.Mounts {
		src := m.Source
		if string(m.Type) == MountVolume {
			src = m.Name
		}
		s.Mounts = append(s.Mounts, Mount{Type: string(m.Type), Source: src, Target: m.Destination, ReadOnly: !m.RW})
	}
	return s
}

// fromDeviceRequests converts the engine's device requests.
func fromDeviceRequests(rs []container.DeviceRequest) []DeviceRequest {
	var out []DeviceRequest
	for _, r := range rs {
		out = append(out, DeviceRequest{Driver: r.Driver, Count: r.Count, DeviceIDs: r.DeviceIDs,
			Capabilities: r.Capabilities, Options: r.Options})
	}
	return out
}

// fromPortMap lists the published bindings of a running container.
func fromPortMap(pm nat.PortMap) []PortBinding {
	var out []PortBinding
	for port, bindings := range pm {
		cport, _ := strconv.Atoi(port.Port())
		for _, b := range bindings {
			hport, _ := strconv.Atoi(b.HostPort)
			out = append(out, PortBinding{HostIP: b.HostIP, HostPort: hport, ContainerPort: cport, Protocol: port.Proto()})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ContainerPort != out[j].ContainerPort {
			return out[i].ContainerPort < out[j].ContainerPort
		}
		return out[i].HostIP < out[j].HostIP
	})
	return out
}
