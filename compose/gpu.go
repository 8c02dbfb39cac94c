package compose

import (
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
)

// nvidiaCapabilities are the capabilities the engine's nvidia device
// driver answers to: a device request with any of them asks for GPUs,
// even without "gpu" (NVIDIA's files often write [compute, utility]).
var nvidiaCapabilities = []string{"gpu", "nvidia", "compute", "compat32", "graphics", "utility", "video", "display"}

// CDIGPUPrefix is the CDI kind NVIDIA's container toolkit names GPUs by:
// nvidia.com/gpu=0, nvidia.com/gpu=GPU-<uuid>, nvidia.com/gpu=all.
const CDIGPUPrefix = "nvidia.com/gpu="

// IsGPURequest says whether a compose device request (gpus:, or an entry
// of deploy.resources.reservations.devices) asks for GPUs.
func IsGPURequest(r types.DeviceRequest) bool {
	if r.Driver == "nvidia" {
		return true
	}
	for _, c := range r.Capabilities {
		if slices.Contains(nvidiaCapabilities, c) {
			return true
		}
	}
	return r.Driver == "cdi" && slices.ContainsFunc(r.IDs, func(id string) bool { return strings.HasPrefix(id, CDIGPUPrefix) })
}

// GPURequest is the service's GPU request as the SDK sends it to the
// engine (gpus:, else deploy's reserved GPU devices); nil for none.
func GPURequest(svc types.ServiceConfig) *types.DeviceRequest {
	for _, g := range svc.Gpus {
		return &g
	}
	if svc.Deploy == nil || svc.Deploy.Resources.Reservations == nil {
		return nil
	}
	for _, d := range svc.Deploy.Resources.Reservations.Devices {
		if IsGPURequest(d) {
			return &d
		}
	}
	return nil
}
