package app

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
)

type hostFacts struct {
	plan.Host
	gpuErr  error  // why NVML could not be read, if it could not
	gpuPath string // GPUPathNVML or GPUPathEngine
}

// Host is the one computation of this machine's facts that every plan is
// made from: CPUs and memory from the engine when its facts were read (up
// and build of a plan that depends on the machine), else from this machine; GPUs through NVML when it loads; and
// whether the engine can give GPUs by doctor's rule. config, diff,
// explain and up therefore agree on CPU fallback and sizing.
func (p *Project) Host(ctx context.Context) plan.Host { return p.facts(ctx).Host }

func (p *Project) facts(ctx context.Context) *hostFacts {
	if p.host != nil {
		return p.host
	}
	h := &hostFacts{}
	var info engine.Info
	if p.info != nil {
		info = *p.info
		h.CPUs, h.MemoryBytes = info.NCPU, info.MemTotal
	} else {
		h.CPUs, h.MemoryBytes = p.opts.Machine()
	}
	h.NoGPURuntime = doctor.NoGPURuntime(info, p.opts.LocalHost())
	h.GPUs, h.gpuPath, h.gpuErr = hostGPUs(ctx, p.opts, p.eng, p.info)
	if h.gpuErr != nil {
		p.out.Debugf("GPUs (%s): %v", h.gpuPath, h.gpuErr)
	}
	p.host = h
	return h
}

func readGPUs(ctx context.Context, open func() (gpu.Inventory, error)) (*gpu.Host, error) {
	inv, err := open()
	if err != nil {
		return nil, err
	}
	defer func() { _ = inv.Close() }()
	return inv.Host(ctx)
}

// localMachine is this machine's CPU count and MemTotal from /proc/meminfo
// (16 GiB where there is none).
func localMachine() (int, int64) { return runtime.NumCPU(), memTotal() }

func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 16 << 30
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil {
				return kb << 10
			}
		}
	}
	return 16 << 30
}

// machineDriver is the NVIDIA driver NVML read on h, or "" when it could not.
func machineDriver(h plan.Host) string {
	if h.GPUs == nil {
		return ""
	}
	return h.GPUs.DriverVersion
}
