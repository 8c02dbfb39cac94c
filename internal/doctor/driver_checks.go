package doctor

import (
	"fmt"
	"strconv"

	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/profiles"
)

// checkDrivers judges, for every GPU service, whether the driver runs the
// CUDA its locked image was built for.
func checkDrivers(e *env) []Check {
	var out []Check
	for _, s := range e.gpuServices() {
		out = append(out, driverCheck(e, s))
	}
	return out
}

func driverCheck(e *env, s service) Check {
	c := Check{ID: IDDriver, Title: "driver for " + s.Name, Service: s.Name}
	h, why := e.gpuHost()
	req := lockedRequires(s)
	switch {
	case s.Lock == nil:
		c.Status, c.Message, c.Fix = Skip, "not in devenv.lock", "run `devenv lock`"
	case req.MinDriver == "" && req.CUDA == "":
		c.Status, c.Message = Skip, "the locked image names no driver requirement"
	case h == nil:
		c.Status, c.Message = Skip, why
	case h.DriverVersion == "":
		c.Status, c.Message = Skip, "NVML reported no driver version"
	default:
		if allDataCenter(h) {
			judgeDataCenterDriver(&c, s, h.DriverVersion, req.CUDA)
		} else {
			judgeDriver(&c, s, h.DriverVersion, h.CUDADriverVersion, req.MinDriver, req.CUDA)
		}
		forwardCompat(&c, s, h, req.CUDA)
	}
	return c
}

// forwardCompat softens a too-old driver for NGC Triton images on
// data-center GPUs, which ship the CUDA forward-compatibility package
// (rapids-facts.md §5.2: Triton runs on older long-term driver branches
// there), as long as the driver can run the CUDA family at all.
func forwardCompat(c *Check, s service, h *gpu.Host, cuda string) {
	if c.Status != Fail || s.Kind != "triton" || !allDataCenter(h) {
		return
	}
	if compareVersions(h.DriverVersion, familyMinDriver[cudaMajor(cuda)]) < 0 {
		return
	}
	c.Status = Warn
	c.Message += "; on data-center GPUs the NGC image may still run through CUDA forward compatibility"
}

// allDataCenter reports whether every GPU is a data-center one, by NVML's
// brand or product name (profiles.DataCenterGPU): those run a CUDA family
// from its floor and take NGC's forward-compatibility package.
func allDataCenter(h *gpu.Host) bool {
	models := make([]profiles.GPUModel, 0, len(h.GPUs))
	for _, g := range h.GPUs {
		models = append(models, profiles.GPUModel{Brand: g.Brand, Name: g.Name})
	}
	return profiles.AllDataCenter(models)
}

func isDataCenter(name string) bool { return profiles.DataCenterGPU("", name) }

const (
	dataCenterRule = "by the data-center rule (every GPU is a data-center one: a CUDA family runs from its floor through minor-version compatibility)"
	toolkitRule    = "by the toolkit rule (not every GPU is a data-center one: each CUDA toolkit wants its own driver)"
)

// judgeDataCenterDriver applies the data-center rule: data-center GPUs run
// every CUDA of a family from the family's floor (CUDA 13 on R580+, CUDA
// 12 on R525+), whatever toolkit driver the lock names.
func judgeDataCenterDriver(c *Check, s service, driver, cuda string) {
	floor := familyMinDriver[cudaMajor(cuda)]
	if compareVersions(driver, floor) < 0 {
		c.Status = s.severity()
		c.Message = fmt.Sprintf("driver %s is older than %s, the oldest that runs CUDA %s %s", driver, floor, cuda, dataCenterRule)
		c.Fix = fmt.Sprintf("upgrade the NVIDIA driver to %s or newer, or lock an older CUDA (`cuda:` in devenv.yaml, then `devenv lock`)", floor)
		return
	}
	c.Status = Pass
	c.Message = fmt.Sprintf("driver %s runs CUDA %s %s (needs %s or newer)", driver, cuda, dataCenterRule, floor)
	if tk := toolkitDriver[majorMinor(cuda)]; tk != "" && compareVersions(driver, tk) < 0 {
		c.Message += fmt.Sprintf("; the CUDA %s toolkit ships with %s, so PTX built for it is not JIT-compiled here", majorMinor(cuda), tk)
	}
}

// judgeDriver applies the minor-version rules: below the family minimum or
// the lock's minimum fails; below the toolkit's own driver warns.
func judgeDriver(c *Check, s service, driver, driverCUDA, minDriver, cuda string) {
	floor := maxVersion(minDriver, familyMinDriver[cudaMajor(cuda)])
	if compareVersions(driver, floor) < 0 {
		c.Status = s.severity()
		c.Message = fmt.Sprintf("driver %s is older than %s, the oldest that runs CUDA %s %s", driver, floor, cuda, toolkitRule)
		c.Fix = fmt.Sprintf("upgrade the NVIDIA driver to %s or newer, or lock an older CUDA (`cuda:` in devenv.yaml, then `devenv lock`)", floor)
		return
	}
	if tk := toolkitDriver[majorMinor(cuda)]; tk != "" && compareVersions(driver, tk) < 0 {
		c.Status = Warn
		c.Message = fmt.Sprintf("driver %s (CUDA %s) runs CUDA %s only through minor-version compatibility "+
			"(CUDA %s ships with %s): kernels that need PTX JIT for the newer toolkit fail, %s", driver, driverCUDA, cuda, majorMinor(cuda), tk, toolkitRule)
		c.Fix = fmt.Sprintf("upgrade the NVIDIA driver to %s or newer", tk)
		return
	}
	c.Status = Pass
	c.Message = fmt.Sprintf("driver %s runs CUDA %s %s (needs %s or newer)", driver, cuda, toolkitRule, floor)
}

// checkComputeCapabilities judges, for every GPU service, whether the GPUs
// it may get are new enough for its locked image.
func checkComputeCapabilities(e *env) []Check {
	var out []Check
	for _, s := range e.gpuServices() {
		out = append(out, ccCheck(e, s))
	}
	return out
}

func ccCheck(e *env, s service) Check {
	c := Check{ID: IDComputeCapability, Title: "GPU generation for " + s.Name, Service: s.Name}
	h, why := e.gpuHost()
	need := lockedRequires(s).MinComputeCapability
	switch {
	case s.Lock == nil:
		c.Status, c.Message, c.Fix = Skip, "not in devenv.lock", "run `devenv lock`"
	case need == "":
		c.Status, c.Message = Skip, "the locked image names no minimum compute capability"
	case h == nil:
		c.Status, c.Message = Skip, why
	case len(h.GPUs) == 0:
		c.Status, c.Message = Skip, "no GPU"
	default:
		judgeCC(&c, s, candidates(s, h), need)
	}
	return c
}

// judgeCC fails when the service cannot get enough GPUs of at least need,
// and warns when it could be placed on one that is too old.
func judgeCC(c *Check, s service, gpus []gpu.GPU, need string) {
	var ok, low []gpu.GPU
	for _, g := range gpus {
		if g.ComputeCapability != "" && compareVersions(g.ComputeCapability, need) < 0 {
			low = append(low, g)
		} else {
			ok = append(ok, g)
		}
	}
	want := wantedCount(s, len(gpus))
	switch {
	case len(low) == 0:
		c.Status = Pass
		c.Message = fmt.Sprintf("every GPU it may use has compute capability %s or newer", need)
	case len(ok) < want:
		c.Status = s.severity()
		c.Message = fmt.Sprintf("needs compute capability %s; %s", need, describeGPUs(low))
		c.Fix = fmt.Sprintf("run it on a GPU with compute capability %s or newer (Volta or later for 7.0), "+
			"or lock an older release that still supports this GPU", need)
	default:
		c.Status = Warn
		c.Message = fmt.Sprintf("needs compute capability %s; %s", need, describeGPUs(low))
		c.Fix = "pin it to the newer GPUs with `gpus: [" + indexList(ok) + "]`"
	}
}

func describeGPUs(gs []gpu.GPU) string {
	var out string
	for i, g := range gs {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("GPU %d (%s) has %s", g.Index, g.Name, g.ComputeCapability)
	}
	return out
}

func indexList(gs []gpu.GPU) string {
	var out string
	for i, g := range gs {
		if i > 0 {
			out += ", "
		}
		out += strconv.Itoa(g.Index)
	}
	return out
}

// candidates are the GPUs a service may land on: those its gpus: names
// (by index, GPU UUID or MIG UUID), else all of them.
func candidates(s service, h *gpu.Host) []gpu.GPU {
	if s.Spec == nil || len(s.Spec.GPUs.IDs) == 0 {
		return h.GPUs
	}
	var out []gpu.GPU
	for _, g := range h.GPUs {
		if namesGPU(s.Spec.GPUs.IDs, g) {
			out = append(out, g)
		}
	}
	return out
}

func namesGPU(ids []string, g gpu.GPU) bool {
	for _, id := range ids {
		if id == strconv.Itoa(g.Index) || id == g.UUID {
			return true
		}
		for _, m := range g.MIGDevices {
			if id == m.UUID {
				return true
			}
		}
	}
	return false
}

// wantedCount is how many of the candidate GPUs the service must get.
func wantedCount(s service, candidates int) int {
	if s.Spec == nil {
		return 1
	}
	g := s.Spec.GPUs
	switch {
	case g.All || len(g.IDs) > 0:
		return candidates
	case g.Count > 0:
		return g.Count
	}
	return 1
}
