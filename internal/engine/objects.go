package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/volume"
)

// EnsureNetwork returns the id of the network name, creating a bridge
// network with labels when there is none.
func (d *docker) EnsureNetwork(ctx context.Context, name string, labels map[string]string) (Object, error) {
	op := fmt.Sprintf("create network %q", name)
	n, err := d.cli.NetworkInspect(ctx, name, network.InspectOptions{})
	if err == nil {
		return Object{Kind: Networks, ID: n.ID, Name: n.Name, Labels: n.Labels, Created: n.Created}, nil
	}
	if !cerrdefs.IsNotFound(err) {
		return Object{}, d.wrap(op, err)
	}
	resp, err := d.cli.NetworkCreate(ctx, name, network.CreateOptions{Driver: "bridge", Labels: labels})
	if err != nil {
		return Object{}, d.wrap(op, err)
	}
	// Before API 1.44 the engine lets a creator racing this one (a devenv
	// killed with its create still in flight) make a second network of
	// the name: look again, so the caller repairs it now (ErrAmbiguous)
	// instead of the Compose SDK refusing the project later.
	if n := d.networksNamed(ctx, name); n > 1 {
		return Object{}, &Error{Op: op, Kind: ErrAmbiguous, Err: fmt.Errorf("network %s is ambiguous (%d matches found based on name)", name, n)}
	}
	return Object{Kind: Networks, ID: resp.ID, Name: name, Labels: labels}, nil
}

// networksNamed counts the networks called exactly name (the engine's
// name filter also matches parts of names); 0 when they cannot be listed.
func (d *docker) networksNamed(ctx context.Context, name string) int {
	ns, err := d.cli.NetworkList(ctx, network.ListOptions{Filters: filters.NewArgs(filters.Arg("name", name))})
	if err != nil {
		return 0
	}
	n := 0
	for _, nw := range ns {
		if nw.Name == name {
			n++
		}
	}
	return n
}

// EnsureVolume returns the volume name, creating it with labels when there
// is none.
func (d *docker) EnsureVolume(ctx context.Context, name string, labels map[string]string) (Object, error) {
	op := fmt.Sprintf("create volume %q", name)
	v, err := d.cli.VolumeInspect(ctx, name)
	if err != nil && !cerrdefs.IsNotFound(err) {
		return Object{}, d.wrap(op, err)
	}
	if err != nil {
		v, err = d.cli.VolumeCreate(ctx, volume.CreateOptions{Name: name, Labels: labels})
		if err != nil {
			return Object{}, d.wrap(op, err)
		}
	}
	created, _ := time.Parse(time.RFC3339, v.CreatedAt)
	return Object{Kind: Volumes, ID: v.Name, Name: v.Name, Labels: v.Labels, Created: created}, nil
}

// labelFilter asks the engine for objects carrying every label; an empty
// value matches any value.
func labelFilter(labels map[string]string) filters.Args {
	args := filters.NewArgs()
	for k, v := range labels {
		if v == "" {
			args.Add("label", k)
		} else {
			args.Add("label", k+"="+v)
		}
	}
	return args
}

// List returns the objects of kind carrying all labels.
func (d *docker) List(ctx context.Context, kind Kind, labels map[string]string) ([]Object, error) {
	op := fmt.Sprintf("list %ss", kind)
	f := labelFilter(labels)
	var objs []Object
	var err error
	switch kind {
	case Containers:
		objs, err = d.listContainers(ctx, f)
	case Networks:
		objs, err = d.listNetworks(ctx, f)
	case Volumes:
		objs, err = d.listVolumes(ctx, f)
	case Images:
		objs, err = d.listImages(ctx, f)
	default:
		return nil, fmt.Errorf("%s: unknown kind %q", op, kind)
	}
	return objs, d.wrap(op, err)
}

func (d *docker) listContainers(ctx context.Context, f filters.Args) ([]Object, error) {
	cs, err := d.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	objs := make([]Object, 0, len(cs))
	for _, c := range cs {
		name := ""
		if len(c.Names) > 0 {
			name = strings.TrimPrefix(c.Names[0], "/")
		}
		objs = append(objs, Object{Kind: Containers, ID: c.ID, Name: name, Labels: c.Labels,
			State: string(c.State), Image: c.Image, Created: time.Unix(c.Created, 0),
			Ports: listedPorts(c.Ports), NetworkIDs: listedNetworks(c.NetworkSettings)})
	}
	return objs, err
}

// listedPorts are the published ports of a container listing.
func listedPorts(ps []container.Port) []PortBinding {
	var out []PortBinding
	for _, p := range ps {
		if p.PublicPort == 0 {
			continue // exposed, not published
		}
		out = append(out, PortBinding{HostIP: p.IP, HostPort: int(p.PublicPort), ContainerPort: int(p.PrivatePort), Protocol: p.Type})
	}
	return out
}

// listedNetworks maps each network a listed container is attached to onto
// the network id it refers to; nil when the listing has no network settings.
func listedNetworks(ns *container.NetworkSettingsSummary) map[string]string {
	if ns == nil {
		return nil
	}
	out := make(map[string]string, len(ns.Networks))
	for name, ep := range ns.Networks {
		if ep != nil {
			out[name] = ep.NetworkID
		}
	}
	return out
}

func (d *docker) listNetworks(ctx context.Context, f filters.Args) ([]Object, error) {
	ns, err := d.cli.NetworkList(ctx, network.ListOptions{Filters: f})
	objs := make([]Object, 0, len(ns))
	for _, n := range ns {
		objs = append(objs, Object{Kind: Networks, ID: n.ID, Name: n.Name, Labels: n.Labels, Created: n.Created})
	}
	return objs, err
}

func (d *docker) listVolumes(ctx context.Context, f filters.Args) ([]Object, error) {
	vs, err := d.cli.VolumeList(ctx, volume.ListOptions{Filters: f})
	objs := make([]Object, 0, len(vs.Volumes))
	for _, v := range vs.Volumes {
		created, _ := time.Parse(time.RFC3339, v.CreatedAt)
		objs = append(objs, Object{Kind: Volumes, ID: v.Name, Name: v.Name, Labels: v.Labels, Created: created})
	}
	return objs, err
}

func (d *docker) listImages(ctx context.Context, f filters.Args) ([]Object, error) {
	is, err := d.cli.ImageList(ctx, image.ListOptions{Filters: f})
	objs := make([]Object, 0, len(is))
	for _, i := range is {
		name := ""
		if len(i.RepoTags) > 0 {
			name = i.RepoTags[0]
		}
		objs = append(objs, Object{Kind: Images, ID: i.ID, Name: name, Tags: i.RepoTags, Labels: i.Labels, Created: time.Unix(i.Created, 0)})
	}
	return objs, err
}

// Remove removes one object of kind.
func (d *docker) Remove(ctx context.Context, kind Kind, id string, removeVolumes bool) error {
	op := fmt.Sprintf("remove %s %q", kind, id)
	var err error
	switch kind {
	case Containers:
		err = d.cli.ContainerRemove(ctx, id, container.RemoveOptions{Force: true, RemoveVolumes: removeVolumes})
	case Networks:
		err = d.cli.NetworkRemove(ctx, id)
	case Volumes:
		err = d.cli.VolumeRemove(ctx, id, false)
	case Images:
		return d.RemoveImage(ctx, id)
	default:
		return fmt.Errorf("%s: unknown kind %q", op, kind)
	}
	return d.wrap(op, err)
}
