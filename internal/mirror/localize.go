package mirror

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// Host is what the local machine offers.
type Host struct {
	CPUs        int
	MemoryMB    int64
	GPUs        int
	GPUMemoryMB int64
	// Spark is the Spark version the local environment runs (the lock's):
	// class names built per Spark version (the RAPIDS shuffle manager's
	// shim) are rewritten to it. Empty: prod's are kept.
	Spark string
}

// Local is a profile made to fit the host: versions to pin and the confs to
// apply, each conf key with how it was treated.
type Local struct {
	Spark, Scala, Java, Python, Rapids string
	Conf                               map[string]string
	// Sources says where each value comes from: SourceProdValue, "scaled
	// from prod's X: why", or "computed for this machine; prod does not set
	// it ..." — never a computed value credited to prod.
	Sources  map[string]string
	Dropped  map[string]string // key -> reason
	Redacted []string
	Warnings []string
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
	pt := p.Portable()
	l := Local{Spark: p.Runtime.Spark, Scala: p.Runtime.Scala, Java: p.Runtime.Java, Python: p.Runtime.Python,
		Rapids: p.GPU.Rapids, Conf: map[string]string{}, Sources: map[string]string{}, Dropped: pt.Dropped,
		Redacted: pt.Redacted, Warnings: pt.placeholderWarnings()}
	// the scaler sees only portable confs: a dropped key (a placeholder,
	// a prod path) is never rescaled back in
	portable := *p
	portable.Conf = map[string]string{}
	for _, k := range append(append([]string{}, pt.Kept...), pt.SizedHere...) {
		if v, ok := p.Conf[k]; ok && !scaledKey(k) {
			l.Conf[k], l.Sources[k] = v, SourceProdValue
			portable.Conf[k] = v
		}
	}
	for _, k := range append(append([]string{}, pt.Scaled...), pt.SizedHere...) {
		if v, ok := p.Conf[k]; ok {
			portable.Conf[k] = v
		}
	}
	if len(pt.Scaled)+len(pt.SizedHere) > 0 || p.Topology.ExecutorCores > 0 || p.GPU.ExecutorGPUs > 0 {
		l.applyScaled(&portable, h)
	}
	l.dropMissingClasses(p)
	l.rewriteShuffleShim(h.Spark)
	return l
}

// dropMissingClasses keeps, in a class list prod set (spark.plugins,
// spark.sql.extensions), only the classes the local image has, saying
// which were left out (classes.go).
func (l *Local) dropMissingClasses(p *Profile) {
	for _, k := range slices.Sorted(maps.Keys(l.Conf)) {
		if l.Sources[k] != SourceProdValue {
			continue
		}
		if kept, missing, _ := p.localClasses(k, l.Conf[k]); kept != "" && len(missing) > 0 {
			l.Conf[k], l.Sources[k] = kept, "prod's value without what the local image lacks: "+strings.Join(missing, "; ")
		}
	}
}

// SourceProdValue marks a conf Localize copies as prod has it.
const SourceProdValue = "prod's value"

var rapidsShuffleRe = lazy.Regexp(`^com\.nvidia\.spark\.rapids\.spark[0-9a-z]+\.RapidsShuffleManager$`)

// RapidsShuffleShim is the RAPIDS shuffle manager class for a Spark
// release: com.nvidia.spark.rapids.spark350.RapidsShuffleManager for 3.5.0.
func RapidsShuffleShim(spark string) string {
	return "com.nvidia.spark.rapids.spark" + strings.ReplaceAll(spark, ".", "") + ".RapidsShuffleManager"
}

// rewriteShuffleShim points prod's RAPIDS shuffle manager at the local
// Spark's shim: the class prod named exists only in a jar built for prod's
// Spark (spark321db is Databricks 10.4's).
func (l *Local) rewriteShuffleShim(spark string) {
	const k = "spark.shuffle.manager"
	v := strings.TrimSpace(l.Conf[k])
	if spark == "" || !rapidsShuffleRe().MatchString(v) {
		return
	}
	if shim := RapidsShuffleShim(spark); shim != v {
		l.Conf[k], l.Sources[k] = shim, fmt.Sprintf("rewritten from prod's %s: the RAPIDS shuffle manager of the local Spark %s", v, spark)
	}
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
	for _, rp := range p.ResourceProfiles {
		if rp.Used && rp.OverheadMB > 0 {
			s.overMB = rp.OverheadMB // what the executors that ran had
		}
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
	if gpuMode && loc.taskGPU > loc.execGPU {
		loc.taskGPU = loc.execGPU // a task cannot ask for more GPUs than its executor has
	}
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
			l.scaled(p, "spark.driver.memory", mb2s(driverMB), "at most 1/8 of host memory")
		}
	}
	loc, why := fit(prod, h, driverMB)
	reason := strings.Join(append([]string{fmt.Sprintf("prod ran %d x %d cores, %d MB (%s)", max(prod.executors, 1), prod.cores, prod.memMB, shapeSource(p))}, why...), "; ")
	set := func(key, val string) {
		if _, drop := l.Dropped[key]; drop {
			return // prod's value is not portable (a placeholder): devenv's own sizing applies
		}
		if _, ok := p.Conf[key]; ok || key == "spark.executor.memory" || key == "spark.executor.cores" {
			l.scaled(p, key, val, reason)
		}
	}
	set("spark.executor.cores", strconv.Itoa(loc.cores))
	set("spark.executor.memory", mb2s(loc.memMB))
	set("spark.executor.instances", strconv.Itoa(loc.executors))
	set("spark.cores.max", strconv.Itoa(loc.cores*loc.executors))
	if loc.overMB > 0 {
		set("spark.executor.memoryOverhead", mb2s(loc.overMB))
	}
	if v, ok := p.Conf["spark.driver.cores"]; ok {
		n, _ := strconv.Atoi(v)
		l.scaled(p, "spark.driver.cores", strconv.Itoa(max(min(n, 2), 1)), "at most 2 driver cores locally")
	}
	l.scaleMemoryKeys(p, h, loc, prod)
	l.scaleGPU(p, h, loc)
}

// shapeSource says where prod's executor shape was read.
func shapeSource(p *Profile) string {
	if src := p.Topology.ExecutorCoresProvenance; src != "" {
		return "cores from " + src
	}
	return "prod states no executor cores; 1 assumed"
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
			l.Conf[k], l.Sources[k] = p.Conf[k], SourceProdValue
			continue
		}
		// to the nearest MiB: a local executor a MiB short of prod's (its
		// memory rounded down) keeps prod's 2g, not 2047m
		n := (mb*loc.memMB + prod.memMB/2) / prod.memMB
		if h.MemoryMB > 0 {
			n = min(n, h.MemoryMB/8)
		}
		l.scaled(p, k, mb2s(max(n, 1)), "with executor memory")
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
		l.scaled(p, keys[0], fmtFloat(loc.execGPU), "one local GPU per executor")
	}
	if _, ok := p.Conf[keys[1]]; ok && loc.taskGPU > 0 {
		l.scaled(p, keys[1], fmtFloat(loc.taskGPU), "GPU share per task kept while it fills the GPU")
	}
	if h.GPUMemoryMB > 0 && p.GPU.Model != "" {
		l.Warnings = append(l.Warnings, fmt.Sprintf("prod GPUs are %s; the local GPU has %d MB", p.GPU.Model, h.GPUMemoryMB))
	}
}

// scaled records a value devenv computed for key, saying what prod had:
// prod's value when it is the same, "scaled from prod's X" when not, and
// "prod does not set it" when prod's confs lack the key.
func (l *Local) scaled(p *Profile, key, val, why string) {
	l.Conf[key] = val
	pv, ok := p.Conf[key]
	switch {
	case !ok:
		l.Sources[key] = "computed for this machine; prod does not set " + key + ": " + why
	case strings.TrimSpace(pv) == val || sameSize(pv, val):
		l.Conf[key], l.Sources[key] = strings.TrimSpace(pv), SourceProdValue
	default:
		l.Sources[key] = fmt.Sprintf("scaled from prod's %s: %s", strings.TrimSpace(pv), why)
	}
}

// scaledKey: Localize rescales key rather than copying it.
func scaledKey(k string) bool {
	act, _ := classify(k, "")
	return act == actScale
}

// sameSize: two Spark sizes of the same amount ("2G", "2048m").
func sameSize(a, b string) bool {
	x, err1 := parseSizeMB(a, "m")
	y, err2 := parseSizeMB(b, "m")
	return err1 == nil && err2 == nil && x == y && strings.ContainsAny(strings.ToLower(a), "kmgt")
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
