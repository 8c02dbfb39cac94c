package mirror

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Host is what the local machine offers.
type Host struct {
	CPUs        int
	MemoryMB    int64
	GPUs        int
	GPUMemoryMB int64
}

// Local is a profile made to fit the host: versions to pin and the confs to
// apply, each conf key with how it was treated.
type Local struct {
	Spark, Scala, Java, Python, Rapids string
	Conf                               map[string]string
	Sources                            map[string]string // key -> "kept" | "scaled: <why>"
	Dropped                            map[string]string // key -> reason
	Redacted                           []string
	Warnings                           []string
}

// shape is an executor layout.
type shape struct {
	executors, cores int
	memMB, overMB    int64
	execGPU, taskGPU float64
}

// Localize keeps the confs that decide behaviour, rescales the ones sized for
// the prod cluster (memory per core and GPU share per task are kept while
// fitting the host) and drops platform, network and prod-path keys. Secrets
// are listed in Redacted and copied nowhere.
func (p *Profile) Localize(h Host) Local {
	l := Local{Spark: p.Runtime.Spark, Scala: p.Runtime.Scala, Java: p.Runtime.Java, Python: p.Runtime.Python,
		Rapids: p.GPU.Rapids, Conf: map[string]string{}, Sources: map[string]string{}, Dropped: map[string]string{},
		Redacted: append([]string{}, p.Redacted...)}
	scaled := false
	for _, k := range slices.Sorted(maps.Keys(p.Conf)) {
		v := p.Conf[k]
		act, reason := classify(k, v)
		switch act {
		case actSecret:
			l.Redacted = append(l.Redacted, k)
		case actDrop:
			l.Dropped[k] = reason
		case actScale:
			scaled = true
		default:
			l.Conf[k], l.Sources[k] = v, "kept"
		}
	}
	if scaled || p.Topology.ExecutorCores > 0 || p.GPU.ExecutorGPUs > 0 {
		l.applyScaled(p, h)
	}
	sort.Strings(l.Redacted)
	l.Redacted = dedupSorted(l.Redacted)
	return l
}

// prodShape reads the prod executor layout from the profile.
func prodShape(p *Profile) shape {
	s := shape{executors: p.Topology.Executors, cores: p.Topology.ExecutorCores, memMB: p.Topology.ExecutorMemoryMB,
		execGPU: p.GPU.ExecutorGPUs, taskGPU: p.GPU.TaskGPU}
	if s.cores <= 0 {
		s.cores = 1
	}
	if s.memMB <= 0 {
		s.memMB = 1024
	}
	if v, ok := p.Conf["spark.executor.memoryOverhead"]; ok {
		s.overMB, _ = parseSizeMB(v, "m")
	}
	return s
}

// fit computes the local layout: one executor per local GPU (at most as many
// as prod had), cores capped by the host's CPUs, memory per core kept and
// capped so executors use at most 3/4 of host memory after the driver.
func fit(prod shape, h Host, driverMB int64) (shape, []string) {
	var why []string
	loc := shape{executors: 1, taskGPU: prod.taskGPU}
	gpuMode := prod.execGPU > 0 && h.GPUs > 0
	if gpuMode {
		loc.executors, loc.execGPU = h.GPUs, 1
		if prod.executors > 0 && prod.executors < loc.executors {
			loc.executors = prod.executors
		}
	}
	cpus := h.CPUs - 1 // one for the driver
	if cpus < 1 {
		cpus = 1
	}
	loc.cores = prod.cores
	if per := cpus / loc.executors; loc.cores > per {
		loc.cores = max(per, 1)
		why = append(why, fmt.Sprintf("%d cores per executor fit %d host CPUs", loc.cores, h.CPUs))
	}
	perCore := prod.memMB / int64(prod.cores)
	loc.memMB = perCore * int64(loc.cores)
	budget := (h.MemoryMB*3/4 - driverMB) / int64(loc.executors)
	if h.MemoryMB > 0 && loc.memMB+scaleOverhead(prod, loc.memMB) > budget && budget > 0 {
		loc.memMB = max(budget*10/11, 512)
		why = append(why, fmt.Sprintf("capped to fit %d MB of host memory", h.MemoryMB))
	}
	loc.overMB = scaleOverhead(prod, loc.memMB)
	if gpuMode && loc.taskGPU > 0 && loc.taskGPU*float64(loc.cores) < 1 && prod.taskGPU*float64(prod.cores) >= 1 {
		// prod filled its GPU with tasks; keep the GPU full with fewer cores.
		loc.taskGPU = 1 / float64(loc.cores)
	}
	return loc, why
}

// scaleOverhead keeps prod's overhead-to-memory ratio.
func scaleOverhead(prod shape, memMB int64) int64 {
	if prod.overMB <= 0 || prod.memMB <= 0 {
		return 0
	}
	return prod.overMB * memMB / prod.memMB
}

// applyScaled writes the rescaled keys into l.
func (l *Local) applyScaled(p *Profile, h Host) {
	prod := prodShape(p)
	driverMB := int64(1024)
	if v, ok := p.Conf["spark.driver.memory"]; ok {
		if mb, err := parseSizeMB(v, "m"); err == nil && mb > 0 {
			driverMB = min(mb, max(h.MemoryMB/8, 1024))
			l.scaled("spark.driver.memory", mb2s(driverMB), mb != driverMB, fmt.Sprintf("prod %s, at most 1/8 of host memory", v))
		}
	}
	loc, why := fit(prod, h, driverMB)
	reason := strings.Join(append([]string{fmt.Sprintf("prod %d x %d cores, %d MB", max(prod.executors, 1), prod.cores, prod.memMB)}, why...), "; ")
	set := func(key, val string) {
		if _, ok := p.Conf[key]; ok || key == "spark.executor.memory" || key == "spark.executor.cores" {
			l.scaled(key, val, p.Conf[key] != val, reason)
		}
	}
	set("spark.executor.cores", strconv.Itoa(loc.cores))
	set("spark.executor.memory", mb2s(loc.memMB))
	set("spark.executor.instances", strconv.Itoa(loc.executors))
	set("spark.cores.max", strconv.Itoa(loc.cores*loc.executors))
	for _, k := range []string{"spark.dynamicAllocation.minExecutors", "spark.dynamicAllocation.maxExecutors", "spark.dynamicAllocation.initialExecutors"} {
		if v, ok := p.Conf[k]; ok {
			n, _ := strconv.Atoi(v)
			set(k, strconv.Itoa(min(n, loc.executors)))
		}
	}
	if loc.overMB > 0 {
		set("spark.executor.memoryOverhead", mb2s(loc.overMB))
	}
	if v, ok := p.Conf["spark.driver.cores"]; ok {
		n, _ := strconv.Atoi(v)
		l.scaled("spark.driver.cores", strconv.Itoa(max(min(n, 2), 1)), n > 2, "at most 2 driver cores locally")
	}
	l.scaleMemoryKeys(p, h, loc, prod)
	l.scaleGPU(p, h, loc)
}

// scaleMemoryKeys scales off-heap and RAPIDS memory pools by the executor
// memory ratio, capped by host memory.
func (l *Local) scaleMemoryKeys(p *Profile, h Host, loc, prod shape) {
	for _, k := range slices.Sorted(maps.Keys(p.Conf)) {
		if k != "spark.memory.offHeap.size" && !(strings.HasPrefix(k, "spark.rapids.memory.") && strings.HasSuffix(k, ".size")) {
			continue
		}
		mb, err := parseSizeMB(p.Conf[k], "b")
		if err != nil || mb <= 0 {
			l.Conf[k], l.Sources[k] = p.Conf[k], "kept"
			continue
		}
		n := mb * loc.memMB / prod.memMB
		if h.MemoryMB > 0 {
			n = min(n, h.MemoryMB/8)
		}
		l.scaled(k, mb2s(max(n, 1)), n != mb, "scaled with executor memory")
	}
}

// scaleGPU sets the GPU resource amounts, or drops them without local GPUs.
func (l *Local) scaleGPU(p *Profile, h Host, loc shape) {
	keys := []string{"spark.executor.resource.gpu.amount", "spark.task.resource.gpu.amount"}
	if p.GPU.ExecutorGPUs > 0 && h.GPUs == 0 {
		for _, k := range keys {
			if _, ok := p.Conf[k]; ok {
				l.Dropped[k] = "this host has no GPU: RAPIDS runs in CPU mode"
			}
		}
		l.Warnings = append(l.Warnings, "prod executors use GPUs but this host has none: the mirror runs on CPU and GPU-only bugs will not reproduce")
		return
	}
	if _, ok := p.Conf[keys[0]]; ok && loc.execGPU > 0 {
		l.scaled(keys[0], fmtFloat(loc.execGPU), p.Conf[keys[0]] != fmtFloat(loc.execGPU), "one local GPU per executor")
	}
	if _, ok := p.Conf[keys[1]]; ok && loc.taskGPU > 0 {
		l.scaled(keys[1], fmtFloat(loc.taskGPU), p.Conf[keys[1]] != fmtFloat(loc.taskGPU), "GPU share per task kept while it fills the GPU")
	}
	if h.GPUMemoryMB > 0 && p.GPU.Model != "" {
		l.Warnings = append(l.Warnings, fmt.Sprintf("prod GPUs are %s; the local GPU has %d MB", p.GPU.Model, h.GPUMemoryMB))
	}
}

func (l *Local) scaled(key, val string, changed bool, why string) {
	l.Conf[key] = val
	if changed {
		l.Sources[key] = "scaled: " + why
	} else {
		l.Sources[key] = "kept"
	}
}

func mb2s(mb int64) string {
	if mb%1024 == 0 && mb > 0 {
		return strconv.FormatInt(mb/1024, 10) + "g"
	}
	return strconv.FormatInt(mb, 10) + "m"
}

func fmtFloat(f float64) string {
	f = math.Round(f*10000) / 10000
	return strconv.FormatFloat(f, 'f', -1, 64)
}
