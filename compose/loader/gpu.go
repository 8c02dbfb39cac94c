package loader

import (
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
)

// gpuWant collects the service's GPU request from gpus:, from
// deploy.resources.reservations.devices entries for GPUs, or from
// runtime: nvidia. More than one GPU request is an error; device requests
// that are not for GPUs are warned about.
func gpuWant(s types.ServiceConfig, pos *positions) (*compose.GPUWant, []string, []string) {
	type found struct {
		key string
		req types.DeviceRequest
	}
	var reqs []found
	var warns []string
	for _, r := range s.Gpus {
		reqs = append(reqs, found{"gpus", r})
	}
	if s.Deploy != nil && s.Deploy.Resources.Reservations != nil {
		for _, r := range s.Deploy.Resources.Reservations.Devices {
			if !compose.IsGPURequest(r) {
				warns = append(warns, pos.problem(s.Name, "deploy", "device request with capabilities %v is ignored: devenv only requests GPUs (capabilities: [gpu])", r.Capabilities))
				continue
			}
			reqs = append(reqs, found{"deploy", r})
		}
	}
	switch len(reqs) {
	case 0:
		return runtimeWant(s), nil, warns
	case 1:
	default:
		return nil, []string{pos.problem(s.Name, reqs[1].key, "asks for GPUs %d times (gpus: and deploy.resources.reservations.devices); keep one request", len(reqs))}, warns
	}
	r := reqs[0].req
	w := &compose.GPUWant{Capabilities: capabilities(r.Capabilities), Driver: r.Driver}
	ids := splitIDs(r.IDs)
	switch {
	case len(ids) > 0 && r.Count != 0:
		return nil, []string{pos.problem(s.Name, reqs[0].key, "GPU request sets both count and device_ids; keep one")}, warns
	case len(ids) > 0:
		w.DeviceIDs = ids
		w.All, w.IDs = placementIDs(ids)
	case r.Count <= 0:
		// compose: a GPU request without count or device_ids means all GPUs
		w.All = true
	default:
		w.Count = int(r.Count)
	}
	return w, nil, warns
}

// splitIDs splits comma-joined device ids ("0,1", as NVIDIA_VISIBLE_DEVICES
// writes them), which the engine's nvidia driver accepts as two GPUs.
func splitIDs(in []string) []string {
	var out []string
	for _, id := range in {
		for _, part := range strings.Split(id, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// placementIDs are the GPU indexes or UUIDs that ids name, CDI names
// included (nvidia.com/gpu=all is every GPU).
func placementIDs(ids []string) (all bool, out []string) {
	for _, id := range ids {
		id = strings.TrimPrefix(id, compose.CDIGPUPrefix)
		if id == "all" {
			return true, nil
		}
		out = append(out, id)
	}
	return false, out
}

// runtimeWant is the GPU want of runtime: nvidia, which takes its GPUs
// from NVIDIA_VISIBLE_DEVICES (unset or "all": every GPU; "none" or
// "void": none, and the service is not a GPU service).
func runtimeWant(s types.ServiceConfig) *compose.GPUWant {
	if s.Runtime != "nvidia" {
		return nil
	}
	visible := "all"
	if v, ok := s.Environment["NVIDIA_VISIBLE_DEVICES"]; ok && v != nil {
		visible = *v
	}
	w := &compose.GPUWant{Runtime: true, Capabilities: []string{"gpu"}}
	switch strings.TrimSpace(visible) {
	case "none", "void", "":
		return nil
	case "all":
		w.All = true
	default:
		w.All, w.IDs = placementIDs(splitIDs([]string{visible}))
	}
	return w
}

// capabilities puts gpu first, keeping each capability once.
func capabilities(in []string) []string {
	out := []string{"gpu"}
	for _, c := range in {
		if c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}
