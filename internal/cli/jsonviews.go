package cli

import (
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
)

// The JSON shapes of devenv.yaml values and engine requests in --json
// output. The model types carry no JSON tags of their own (the engine's are
// hashed into config hashes as they are), so the CLI prints these views with
// snake_case keys instead of Go's field names.

type gpusView struct {
	All   bool     `json:"all,omitempty"`
	Count int      `json:"count"`
	IDs   []string `json:"ids,omitempty"`
}

type portView struct {
	HostIP        string `json:"host_ip"`
	HostPort      int    `json:"host_port"`
	ContainerPort int    `json:"container_port"`
	Protocol      string `json:"protocol"`
}

type volumeView struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	ReadOnly bool   `json:"read_only,omitempty"`
	Named    bool   `json:"named,omitempty"`
}

type gpuRequestView struct {
	All          bool              `json:"all,omitempty"`
	Count        int               `json:"count,omitempty"`
	DeviceIDs    []string          `json:"device_ids,omitempty"`
	Capabilities []string          `json:"capabilities,omitempty"`
	Driver       string            `json:"driver,omitempty"`
	Options      map[string]string `json:"options,omitempty"`
}

func gpusOf(g spec.GPUs) gpusView { return gpusView{All: g.All, Count: g.Count, IDs: g.IDs} }

func portsOf(ps []spec.Port) []portView {
	var out []portView
	for _, p := range ps {
		host := p.Host
		if host == 0 {
			host = p.Container
		}
		out = append(out, portView{HostIP: p.HostIP, HostPort: host, ContainerPort: p.Container, Protocol: p.Protocol})
	}
	return out
}

func volumesOf(vs []spec.Volume) []volumeView {
	var out []volumeView
	for _, v := range vs {
		out = append(out, volumeView(v))
	}
	return out
}

func gpuRequestOf(r *engine.GPURequest) *gpuRequestView {
	if r == nil {
		return nil
	}
	v := gpuRequestView(*r)
	return &v
}
