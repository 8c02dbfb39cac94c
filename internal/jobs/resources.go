package jobs

import (
	"strconv"

	"github.com/devenv-dev/devenv/internal/engine"
)

// Resources is what a job holds while it runs: its service and the GPUs
// that service's container was given.
type Resources struct {
	Service string   `json:"service"`
	GPUs    []string `json:"gpus,omitempty"` // device ids: indexes or UUIDs
	// AllGPUs is set when the container may use any GPU (gpus: all or a count).
	AllGPUs bool `json:"all_gpus,omitempty"`
	// Unknown is set when devenv could not tell; such a job shares with everything.
	Unknown bool `json:"unknown,omitempty"`
}

// usesGPU reports whether the resources name any GPU at all.
func (r Resources) usesGPU() bool { return r.AllGPUs || len(r.GPUs) > 0 }

// Conflicts reports whether jobs holding a and b must not run at the same
// time: the same service, a GPU both may use, or anything unknown. Indexes
// and UUIDs cannot be matched without NVML, so a mix counts as shared.
func (a Resources) Conflicts(b Resources) bool {
	switch {
	case a.Service == b.Service, a.Unknown, b.Unknown:
		return true
	case !a.usesGPU() || !b.usesGPU():
		return false
	case a.AllGPUs || b.AllGPUs:
		return true
	}
	for _, x := range a.GPUs {
		for _, y := range b.GPUs {
			if x == y || isIndex(x) != isIndex(y) {
				return true
			}
		}
	}
	return false
}

func isIndex(id string) bool {
	_, err := strconv.Atoi(id)
	return err == nil
}

// ResourcesOf reads a container's GPUs from its device requests as the
// engine stores them: device ids name GPUs, a count (or -1, all) may be any.
func ResourcesOf(service string, st engine.ContainerState) Resources {
	r := Resources{Service: service}
	for _, d := range st.DeviceRequests {
		if !isGPURequest(d) {
			continue
		}
		if len(d.DeviceIDs) > 0 {
			r.GPUs = append(r.GPUs, d.DeviceIDs...)
		} else {
			r.AllGPUs = true
		}
	}
	return r
}

// isGPURequest is true for a request with the gpu capability or the nvidia driver.
func isGPURequest(d engine.DeviceRequest) bool {
	if d.Driver == "nvidia" || d.Driver == "cdi" {
		return true
	}
	for _, set := range d.Capabilities {
		for _, c := range set {
			if c == "gpu" {
				return true
			}
		}
	}
	return false
}
