package plan

import (
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/profiles"
)

// placeGPUs places GPU services on the host's GPUs when NVML could be read.
func placeGPUs(p *spec.Project, h Host, extra []gpu.Need) (*gpu.Placement, error) {
	if h.GPUs == nil {
		return nil, nil
	}
	needs := extra
	for _, s := range p.Services {
		if !s.GPUs.Wants() {
			continue
		}
		needs = append(needs, gpu.Need{Service: s.Name, Kind: kindOf(p.BaseProfile(s)), All: s.GPUs.All,
			Count: s.GPUs.Count, IDs: s.GPUs.IDs, Optional: s.GPU == "optional"})
	}
	if len(needs) == 0 {
		return nil, nil
	}
	return gpu.Place(needs, h.GPUs)
}

func kindOf(base string) string {
	switch base {
	case profiles.SparkRapids:
		return "spark"
	case profiles.Triton:
		return "triton"
	case profiles.Rapids:
		return "rapids"
	}
	return "other"
}

func assignment(place *gpu.Placement, name string) *gpu.Assignment {
	if place == nil {
		return nil
	}
	if a, ok := place.Services[name]; ok {
		return &a
	}
	return nil
}

// applyGPU turns gpus: into the engine's device request exactly as
// `docker run --gpus` would (all -> Count -1, N -> Count N, ids -> DeviceIDs),
// using the placed devices for a count when NVML placed the service, or
// falls back to the CPU for `gpu: optional` when no GPU can be had.
func applyGPU(ps *Service, c *types.ServiceConfig, s *spec.Service, h Host, a *gpu.Assignment, env map[string]string) {
	if !s.GPUs.Wants() {
		return
	}
	if reason := fallbackReason(s, h, a); reason != "" {
		ps.CPUFallback, ps.Reason = true, reason
		c.Labels[labels.CPUFallback] = "true"
		env["NVIDIA_VISIBLE_DEVICES"] = "void"
		return
	}
	req := &types.DeviceRequest{Capabilities: gpuCapabilities(nil)}
	switch {
	case s.GPUs.All:
		req.Count = -1
		env["NVIDIA_VISIBLE_DEVICES"] = "all"
	case len(s.GPUs.IDs) > 0:
		req.IDs = append([]string(nil), s.GPUs.IDs...)
	case a != nil && len(a.Devices) > 0:
		req.IDs = append([]string(nil), a.Devices...)
	default:
		req.Count = types.DeviceCount(s.GPUs.Count)
	}
	if len(req.IDs) > 0 {
		env["NVIDIA_VISIBLE_DEVICES"] = strings.Join(req.IDs, ",")
	}
	env["NVIDIA_DRIVER_CAPABILITIES"] = "compute,utility"
	gpuDevices(c, req)
	c.Labels[labels.GPUs] = gpuLabel(*req)
}

// OptionalOnCPUReason is why an export runs a `gpu: optional` service on
// the CPU.
const OptionalOnCPUReason = "exported to start on any machine: gpu: optional runs on the CPU there (devenv up uses a GPU when there is one)"

func fallbackReason(s *spec.Service, h Host, a *gpu.Assignment) string {
	if s.GPU != "optional" {
		return ""
	}
	switch {
	case h.OptionalOnCPU:
		return OptionalOnCPUReason
	case a != nil && a.CPUFallback:
		return a.Reason
	case h.NoGPURuntime:
		return "the Docker engine has no NVIDIA GPU runtime (gpu: optional)"
	case h.GPUs != nil && len(h.GPUs.GPUs) == 0:
		return "this machine has no NVIDIA GPU (gpu: optional)"
	}
	return ""
}

// gpuLabel is labels.GPUs of a GPU request: all, the ids, or count=N.
func gpuLabel(r types.DeviceRequest) string {
	switch {
	case r.Count == -1:
		return "all"
	case len(r.IDs) > 0:
		return strings.Join(r.IDs, ",")
	}
	return "count=" + strconv.Itoa(int(r.Count))
}
