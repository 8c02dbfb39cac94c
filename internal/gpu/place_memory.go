package gpu

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

const (
	gib = int64(1) << 30
	// contextOverhead is kept outside each service's pool for its CUDA
	// context, kernels and libraries. A bare context took 518 MiB on an
	// H200 with driver 580 (make e2e-gpu, NVML's used memory less the
	// allocation), so 512 MiB let two services sharing a GPU run it out.
	contextOverhead = int64(768) << 20
	// sparkMinAllocFraction is the RAPIDS Accelerator's default lowest
	// allowed allocFraction.
	sparkMinAllocFraction = 0.25
	// RMMPoolLimitEnv carries a RAPIDS service's RMM pool limit in bytes; the
	// notebook image passes it to rmm.reinitialize(maximum_pool_size=...).
	RMMPoolLimitEnv = "DEVENV_RMM_POOL_LIMIT_BYTES"
	// MemoryLimitEnv carries the share of a plain image service (kind
	// other) in bytes, less its context's overhead: the most its own
	// allocator should take, since devenv knows no setting of its own.
	MemoryLimitEnv = "DEVENV_GPU_MEMORY_LIMIT_BYTES"
)

// minMemory is the least GPU memory each kind runs usefully with.
var minMemory = map[string]int64{KindSpark: 2 * gib, KindTriton: gib, KindRAPIDS: gib}

// assign turns the slots picked for need n into its Assignment, splitting
// each shared slot's memory equally between the services on it.
func assign(n Need, picked slots, needs []Need, warnings *[]string) Assignment {
	a := Assignment{All: n.All, MemoryBytes: math.MaxInt64, AllocFraction: 1}
	var shared, alone []string
	for dev, s := range picked {
		a.Devices = append(a.Devices, s.uuid)
		if len(a.GPUs) == 0 || a.GPUs[len(a.GPUs)-1] != s.gpu {
			a.GPUs = append(a.GPUs, s.gpu)
		}
		share := s.budget / int64(len(s.users))
		a.MemoryBytes = min(a.MemoryBytes, share)
		if len(s.users) == 1 {
			alone = append(alone, s.label)
			continue
		}
		shared = append(shared, fmt.Sprintf("%s with %s", s.label, strings.Join(others(s, n, needs), ", ")))
		a.AllocFraction = min(a.AllocFraction, floor2(float64(share)/float64(s.budget)))
		if want := minMemory[n.Kind]; share < want {
			*warnings = append(*warnings, fmt.Sprintf("service %q gets %s of %s, below the %s %s needs; "+
				"give it a GPU of its own (gpus: [id]) or move a service to the CPU",
				n.Service, human(share), s.label, human(want), n.Kind))
		}
		if n.Kind == KindTriton {
			a.Args = append(a.Args, fmt.Sprintf("--cuda-memory-pool-byte-size=%d:%d", dev, max(share-contextOverhead, 0)))
		}
	}
	a.Reason = reason(shared, alone, a.MemoryBytes)
	if len(shared) == 0 {
		a.AllocFraction = 0 // nothing to split: every kind keeps its defaults
		return a
	}
	kindSettings(&a, n.Kind)
	return a
}

// kindSettings puts the share into Spark's and RAPIDS' own settings, and
// into an environment variable for plain image services.
func kindSettings(a *Assignment, kind string) {
	switch kind {
	case KindSpark:
		f := strconv.FormatFloat(a.AllocFraction, 'f', 2, 64)
		a.Conf = map[string]string{
			"spark.rapids.memory.gpu.allocFraction":    f,
			"spark.rapids.memory.gpu.maxAllocFraction": f,
		}
		if a.AllocFraction < sparkMinAllocFraction {
			a.Conf["spark.rapids.memory.gpu.minAllocFraction"] = f
		}
	case KindRAPIDS:
		a.Env = map[string]string{RMMPoolLimitEnv: strconv.FormatInt(max(a.MemoryBytes-contextOverhead, 0), 10)}
	case KindOther:
		a.Env = map[string]string{MemoryLimitEnv: strconv.FormatInt(max(a.MemoryBytes-contextOverhead, 0), 10)}
	}
}

func reason(shared, alone []string, share int64) string {
	var parts []string
	if len(shared) > 0 {
		parts = append(parts, fmt.Sprintf("shares %s; %s each", strings.Join(shared, "; "), human(share)))
	}
	if len(alone) > 0 {
		parts = append(parts, fmt.Sprintf("alone on %s, defaults kept", strings.Join(alone, ", ")))
	}
	return strings.Join(parts, "; ")
}

// others names the services on s besides n.
func others(s *slot, n Need, needs []Need) []string {
	var out []string
	for _, u := range s.users {
		if needs[u].Service != n.Service {
			out = append(out, needs[u].Service)
		}
	}
	return out
}

// floor2 rounds down to two decimals, so shares never add up past 1.
func floor2(f float64) float64 { return math.Floor(f*100) / 100 }

// human prints a byte count in GiB with one decimal.
func human(b int64) string { return fmt.Sprintf("%.1f GiB", float64(b)/float64(gib)) }
