package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/enginegpu"
	"github.com/devenv-dev/devenv/internal/gpu"
)

// How devenv read the GPUs (doctor says which).
const (
	GPUPathNVML   = doctor.GPUPathNVML   // this machine's NVML: the engine runs here
	GPUPathEngine = doctor.GPUPathEngine // the engine's /info and devenv's probe container
)

// openEngineGPUs is enginegpu.Open as Options.EngineGPUs takes it.
func openEngineGPUs(ctx context.Context, eng engine.Engine) (gpu.Inventory, error) {
	return enginegpu.Open(ctx, eng, enginegpu.Options{})
}

// chooseGPUs is the one rule for where GPU facts come from: this machine's
// NVML when the engine runs here (or there is no engine); the engine's side
// when it does not (an ssh or tcp context: the laptop's GPUs are not the
// engine's), and when NVML cannot be loaded here (no driver, or no
// devenv-nvml beside devenv-core) but the engine's /info shows GPU
// support. DEVENV_GPU_FACTS=nvml or =engine overrides it. info is the
// engine's /info when already read.
func chooseGPUs(ctx context.Context, opts Options, eng engine.Engine, info *engine.Info) (gpu.Inventory, string, error) {
	force := os.Getenv("DEVENV_GPU_FACTS")
	local := eng == nil || engine.EndpointOf(eng).Local
	if force == GPUPathNVML || (force != GPUPathEngine && local) {
		inv, err := opts.GPUs()
		if err == nil || eng == nil || force == GPUPathNVML || !errors.Is(err, gpu.ErrNoNVML) {
			return inv, GPUPathNVML, err
		}
		if info == nil {
			in, ierr := eng.Info(ctx)
			if ierr != nil {
				return nil, GPUPathNVML, err
			}
			info = &in
		}
		if !EngineOffersGPUs(*info) {
			return nil, GPUPathNVML, err
		}
	}
	inv, err := opts.EngineGPUs(ctx, eng)
	if err != nil {
		return nil, GPUPathEngine, fmt.Errorf("read the GPUs of the engine at %s: %w", engine.EndpointOf(eng), err)
	}
	return inv, GPUPathEngine, nil
}

// EngineOffersGPUs is true when the engine's /info shows a way to give
// containers GPUs: an nvidia runtime, CDI spec directories, or NVIDIA
// devices its drivers discovered (Docker 28.2+).
func EngineOffersGPUs(info engine.Info) bool {
	if info.NvidiaRuntime || len(info.CDISpecDirs) > 0 {
		return true
	}
	for _, d := range info.DiscoveredDevices {
		if strings.Contains(d, "nvidia.com/gpu") {
			return true
		}
	}
	return false
}

// hostGPUs reads the GPUs by chooseGPUs' rule.
func hostGPUs(ctx context.Context, opts Options, eng engine.Engine, info *engine.Info) (*gpu.Host, string, error) {
	inv, path, err := chooseGPUs(ctx, opts, eng, info)
	if err != nil {
		return nil, path, err
	}
	defer func() { _ = inv.Close() }()
	h, err := inv.Host(ctx)
	return h, path, err
}
