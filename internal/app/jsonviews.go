package app

import (
	"maps"
	"slices"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/spec"
)

// The JSON shapes of devenv.yaml values and engine requests in Config
// (devenv config --json). The model types carry no JSON tags of their own
// (the engine's are hashed into config hashes as they are), so Config holds
// these views with snake_case keys instead of Go's field names.

// GPUsView is gpus: as written: all, a count or device IDs.
type GPUsView struct {
	All   bool     `json:"all,omitempty"`
	Count int      `json:"count"`
	IDs   []string `json:"ids,omitempty"`
}

// PortView is a published port.
type PortView struct {
	HostIP        string `json:"host_ip"`
	HostPort      int    `json:"host_port"`
	ContainerPort int    `json:"container_port"`
	Protocol      string `json:"protocol"`
	// Note says where devenv publishes it otherwise than Compose would.
	Note string `json:"note,omitempty"`
}

// VolumeView is a bind mount or named volume.
type VolumeView struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	ReadOnly bool   `json:"read_only,omitempty"`
	Named    bool   `json:"named,omitempty"`
}

// GPURequestView is the engine GPU request devenv makes.
type GPURequestView struct {
	All          bool              `json:"all,omitempty"`
	Count        int               `json:"count,omitempty"`
	DeviceIDs    []string          `json:"device_ids,omitempty"`
	Capabilities []string          `json:"capabilities,omitempty"`
	Driver       string            `json:"driver,omitempty"`
	Options      map[string]string `json:"options,omitempty"`
}

func gpusOf(g spec.GPUs) GPUsView { return GPUsView{All: g.All, Count: g.Count, IDs: g.IDs} }

func portsOf(ps []spec.Port) []PortView {
	var out []PortView
	for _, p := range ps {
		host := p.Host
		if host == 0 {
			host = p.Container
		}
		out = append(out, PortView{HostIP: p.HostIP, HostPort: host, ContainerPort: p.Container, Protocol: p.Protocol})
	}
	return out
}

func volumesOf(vs []spec.Volume) []VolumeView {
	var out []VolumeView
	for _, v := range vs {
		out = append(out, VolumeView(v))
	}
	return out
}

// gpuRequestOf is a rendered service's GPU request (r) as devenv asked
// for it: all, a count or devices, and the capabilities besides "gpu".
func gpuRequestOf(r *types.DeviceRequest) *GPURequestView {
	if r == nil {
		return nil
	}
	v := GPURequestView{All: r.Count == -1, DeviceIDs: slices.Clone(r.IDs), Driver: r.Driver}
	if r.Count > 0 {
		v.Count = int(r.Count)
	}
	for _, c := range r.Capabilities {
		if c != "gpu" {
			v.Capabilities = append(v.Capabilities, c)
		}
	}
	if len(r.Options) > 0 {
		v.Options = maps.Clone(map[string]string(r.Options))
	}
	return &v
}
