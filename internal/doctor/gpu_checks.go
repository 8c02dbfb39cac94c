package doctor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/enginegpu"
	"github.com/devenv-dev/devenv/internal/gpu"
)

const (
	fixInstallDriver = "install the NVIDIA driver for your GPU and check that `nvidia-smi` works"
	fixWSLDriver     = "install the NVIDIA driver on Windows (it provides the GPU to WSL2 through /usr/lib/wsl/lib); " +
		"do not install a Linux NVIDIA driver inside WSL"
	fixPersistence = "`sudo nvidia-smi -pm 1` (or enable the nvidia-persistenced service) so the driver stays loaded between containers"
)

// otherHostCmd is what to run on the engine's host to see its GPUs.
const otherHostCmd = "`docker run --rm --gpus all nvidia/cuda:12.9.1-base-ubuntu22.04 nvidia-smi`"

// gpuHost returns the GPUs when they are the engine's and were read, or ""
// and the reason they cannot be judged.
func (e *env) gpuHost() (*gpu.Host, string) {
	switch {
	case e.in.GPUPath == GPUPathEngine && e.in.GPUs != nil:
		return e.in.GPUs, ""
	case e.in.GPUPath == GPUPathEngine:
		why := "the engine's GPUs could not be read"
		if e.in.GPUErr != nil {
			why += ": " + firstLine(e.in.GPUErr.Error())
		}
		return nil, why
	case e.goos() != "linux":
		return nil, "GPU facts come from the engine's host (Docker Desktop / WSL2), not " + e.goos() + "; run " + otherHostCmd + " to see them"
	case !e.localEngine():
		return nil, "the engine at " + e.engineName() + " is remote; this machine's GPUs are not the ones its containers get; run " + otherHostCmd
	case e.in.GPUs == nil:
		return nil, "NVML could not be read"
	}
	return e.in.GPUs, ""
}

func checkNVML(e *env) []Check {
	c := Check{ID: IDNVML, Title: "NVIDIA driver (NVML)"}
	if e.in.GPUPath == GPUPathEngine {
		c.Title = "NVIDIA driver (from the engine: /info and a probe container's nvidia-smi)"
	}
	h, why := e.gpuHost()
	switch {
	case h == nil && e.in.GPUPath == GPUPathEngine && e.in.GPUErr != nil:
		c.Status, c.Message = Warn, why
		c.Fix = "on the engine's machine, check " + otherHostCmd
		if errors.Is(e.in.GPUErr, enginegpu.ErrNoGPU) {
			c.Message = "the engine's NVIDIA runtime is there but its machine shows no GPU (nvidia-smi in devenv's probe container listed none)"
			c.Fix = "on the engine's machine `nvidia-smi` must list the GPUs: load the driver or reboot, then regenerate the CDI spec (`sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`)"
		}
		if e.needsGPU() {
			c.Status = Fail
		}
	case h == nil && e.goos() == "linux" && e.localEngine() && e.in.GPUErr != nil:
		c.Status, c.Message, c.Fix = Warn, firstLine(e.in.GPUErr.Error()), fixInstallDriver
		if e.in.Host.WSL {
			c.Fix = fixWSLDriver
		}
		if e.needsGPU() {
			c.Status = Fail
		}
	case h == nil:
		c.Status, c.Message = Skip, why
	case len(h.GPUs) == 0:
		c.Status, c.Fix = Warn, "check `nvidia-smi -L`; a GPU the driver cannot see is often a driver/kernel mismatch (reboot) or a disabled device"
		c.Message = "driver " + h.DriverVersion + " loads but sees no GPU"
		if e.needsGPU() {
			c.Status = Fail
		}
	default:
		c.Status = Pass
		c.Message = fmt.Sprintf("driver %s (CUDA %s), %d GPU(s): %s", h.DriverVersion, h.CUDADriverVersion, len(h.GPUs), gpuNames(h))
		if e.in.GPUPath == GPUPathEngine {
			c.Message += "; read on the engine's machine through a probe container"
		}
	}
	return []Check{c}
}

func gpuNames(h *gpu.Host) string {
	count := map[string]int{}
	var order []string
	for _, g := range h.GPUs {
		if count[g.Name] == 0 {
			order = append(order, g.Name)
		}
		count[g.Name]++
	}
	var parts []string
	for _, n := range order {
		if count[n] > 1 {
			parts = append(parts, fmt.Sprintf("%d x %s", count[n], n))
		} else {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, ", ")
}

func checkPersistence(e *env) []Check {
	c := Check{ID: IDPersistence, Title: "GPU persistence mode"}
	h, why := e.gpuHost()
	switch {
	case h == nil:
		c.Status, c.Message = Skip, why
	case e.in.Host.WSL:
		c.Status, c.Message = Skip, "WSL2: the Windows driver manages the GPU"
	case len(h.GPUs) == 0:
		c.Status, c.Message = Skip, "no GPU"
	default:
		var off []string
		for _, g := range h.GPUs {
			if !g.PersistenceMode {
				off = append(off, fmt.Sprint(g.Index))
			}
		}
		if len(off) == 0 {
			c.Status, c.Message = Pass, "on for every GPU"
		} else {
			c.Status, c.Fix = Warn, fixPersistence
			c.Message = "off on GPU " + strings.Join(off, ", ") + ": each container start pays for initializing the driver"
		}
	}
	return []Check{c}
}
