//go:build linux && cgo

package gpu

import (
	"fmt"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// nvlinks counts one GPU's active NVLinks: to each peer GPU (by PCI bus id)
// and to NVSwitches.
type nvlinks struct {
	toGPU    map[string]int
	toSwitch int
}

// topology describes every pair of GPUs: NVLink (direct, or through
// NVSwitches both are attached to) when there is one, else the PCIe path.
func (r *reader) topology(devs []nvml.Device, gpus []GPU) []TopologyLink {
	links := make([]nvlinks, len(devs))
	for i, d := range devs {
		links[i] = r.nvlinks(d, fmt.Sprintf("GPU %d", gpus[i].Index))
	}
	var out []TopologyLink
	for i := range devs {
		for j := i + 1; j < len(devs); j++ {
			out = append(out, r.pair(devs, gpus, links, i, j))
		}
	}
	return out
}

func (r *reader) pair(devs []nvml.Device, gpus []GPU, links []nvlinks, i, j int) TopologyLink {
	t := TopologyLink{GPUA: gpus[i].Index, GPUB: gpus[j].Index}
	n := links[i].toGPU[gpus[j].PCIBusID]
	if n == 0 && links[i].toSwitch > 0 && links[j].toSwitch > 0 {
		n = min(links[i].toSwitch, links[j].toSwitch)
	}
	if n > 0 {
		t.Link, t.NVLinks = fmt.Sprintf("NV%d", n), n
		return t
	}
	level, ret := devs[i].GetTopologyCommonAncestor(devs[j])
	if r.optional(ret, fmt.Sprintf("GPUs %d and %d", t.GPUA, t.GPUB), "their PCIe topology") {
		t.Link = topologyLevelName(int(level))
	}
	return t
}

// nvlinks reads which of a GPU's NVLinks are up and where they lead.
func (r *reader) nvlinks(d nvml.Device, where string) nvlinks {
	out := nvlinks{toGPU: map[string]int{}}
	for l := 0; l < nvml.NVLINK_MAX_LINKS; l++ {
		state, ret := d.GetNvLinkState(l)
		if ret == nvml.ERROR_INVALID_ARGUMENT || ret == nvml.ERROR_NOT_SUPPORTED {
			if l == 0 {
				return out // no NVLink on this GPU
			}
			continue
		}
		linkWhere := fmt.Sprintf("%s NVLink %d", where, l)
		if !r.optional(ret, linkWhere, "its state") || state != nvml.FEATURE_ENABLED {
			continue
		}
		kind, ret := d.GetNvLinkRemoteDeviceType(l)
		if r.optional(ret, linkWhere, "its remote device type") && kind == nvml.NVLINK_DEVICE_TYPE_SWITCH {
			out.toSwitch++
			continue
		}
		if p, ret := d.GetNvLinkRemotePciInfo(l); r.optional(ret, linkWhere, "its remote PCI info") {
			out.toGPU[normalizeBusID(cString(p.BusId[:]))]++
		}
	}
	return out
}
