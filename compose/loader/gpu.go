package loader

import (
	"slices"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/internal/engine"
)

// gpuWant collects the service's GPU request from gpus: and from
// deploy.resources.reservations.devices entries with the gpu capability.
// More than one GPU request is an error; device requests that are not for
// GPUs are warned about.
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
			if !slices.Contains(r.Capabilities, "gpu") {
				warns = append(warns, pos.problem(s.Name, "deploy", "device request with capabilities %v is ignored: devenv only requests GPUs (capabilities: [gpu])", r.Capabilities))
				continue
			}
			reqs = append(reqs, found{"deploy", r})
		}
	}
	switch len(reqs) {
	case 0:
		return nil, nil, warns
	case 1:
	default:
		return nil, []string{pos.problem(s.Name, reqs[1].key, "asks for GPUs %d times (gpus: and deploy.resources.reservations.devices); keep one request", len(reqs))}, warns
	}
	r := reqs[0].req
	w := &compose.GPUWant{Capabilities: capabilities(r.Capabilities)}
	switch {
	case len(r.IDs) > 0 && r.Count != 0:
		return nil, []string{pos.problem(s.Name, reqs[0].key, "GPU request sets both count and device_ids; keep one")}, warns
	case len(r.IDs) > 0:
		w.IDs = slices.Clone(r.IDs)
	case r.Count < 0:
		w.All = true
	case r.Count == 0:
		// compose: a GPU request without count or device_ids means all GPUs
		w.All = true
	default:
		w.Count = int(r.Count)
	}
	return w, nil, warns
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

// gpuRequest is the engine request for a GPU want, driver nvidia as
// compose's GPU requests default to.
func gpuRequest(w *compose.GPUWant) *engine.GPURequest {
	req := &engine.GPURequest{All: w.All, Count: w.Count, DeviceIDs: slices.Clone(w.IDs)}
	for _, c := range w.Capabilities {
		if c != "gpu" {
			req.Capabilities = append(req.Capabilities, c)
		}
	}
	return req
}
