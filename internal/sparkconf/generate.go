package sparkconf

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/redact"
)

// Class names the RAPIDS Accelerator needs in list-valued keys.
const (
	SQLPlugin           = "com.nvidia.spark.SQLPlugin"
	GpuKryoRegistrator  = "com.nvidia.spark.rapids.GpuKryoRegistrator"
	kryoSerializerClass = "org.apache.spark.serializer.KryoSerializer"
	cpuFallbackReason   = "CPU fallback: no GPU is given to this service"
)

// listKeys are comma-separated class lists that devenv appends to rather
// than replaces, with the class the plugin needs in each.
var listKeys = []struct{ key, class string }{
	{"spark.plugins", SQLPlugin},
	{"spark.kryo.registrator", GpuKryoRegistrator},
}

// hardwareBound keys describe a machine's shape; a mirrored prod conf must
// not carry them onto the local machine (the user's conf still may).
var hardwareBound = map[string]bool{
	"spark.master": true, "spark.driver.memory": true, "spark.driver.cores": true,
	"spark.executor.memory": true, "spark.executor.cores": true, "spark.executor.instances": true,
	"spark.executor.memoryOverhead": true, "spark.cores.max": true,
	"spark.executor.resource.gpu.amount": true, "spark.executor.resource.gpu.discoveryScript": true,
	"spark.driver.resource.gpu.amount": true, "spark.driver.resource.gpu.discoveryScript": true,
	"spark.task.resource.gpu.amount": true, "spark.rapids.memory.pinnedPool.size": true,
	"spark.rapids.memory.host.spillStorageSize": true, "spark.rapids.sql.concurrentGpuTasks": true,
	"spark.rapids.memory.gpu.allocFraction": true, "spark.rapids.memory.gpu.maxAllocFraction": true,
	"spark.rapids.memory.gpu.minAllocFraction": true,
}

// SizedForHost reports whether devenv sizes key for this machine itself,
// so a mirrored prod value of it is not used (mirror --print says so).
func SizedForHost(key string) bool { return hardwareBound[key] }

// Generate builds the service's Spark conf: profile defaults, then hardware
// tuning, then each mirrored prod layer, then the user's conf, each key
// remembering where its value came from. It reports every problem with in
// at once.
func Generate(in Input) (*Conf, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	d := Topology(in)
	c := newConf()
	c.header = header(in, d)
	c.notes = append(c.notes, d.Notes...)
	applyProfile(c, in)
	applyHardware(c, in, d)
	for _, l := range in.Mirrored {
		applyMirror(c, in, l)
	}
	for _, k := range slices.Sorted(maps.Keys(in.User.Conf)) {
		c.override(k, in.User.Conf[k], SourceUser, in.User.Source)
	}
	finishLists(c, in.gpuMode())
	return c, nil
}

func header(in Input, d Deploy) []string {
	h := []string{fmt.Sprintf("Spark %s, Scala %s", in.Spark, in.Scala)}
	if in.gpuMode() {
		h[0] += fmt.Sprintf(", RAPIDS Accelerator %s", in.Rapids)
	}
	hw := in.Hardware
	gpus := "no GPU"
	if hw.GPUs > 0 {
		gpus = fmt.Sprintf("%d GPU(s) of %s", hw.GPUs, humanBytes(hw.GPUMemoryBytes))
	}
	h = append(h, fmt.Sprintf("Hardware share: %d CPUs, %s memory, %s; %s mode, master %s",
		hw.CPUs, humanBytes(hw.MemoryBytes), gpus, d.Mode, d.MasterURL))
	return h
}

func applyProfile(c *Conf, in Input) {
	p := func(k, v, rule string) { c.set(k, v, SourceProfile, rule) }
	p("spark.locality.wait", "0", "AutoTuner: LOCALITY_WAIT 0, do not wait for data locality")
	if !in.gpuMode() {
		p("spark.rapids.sql.enabled", "false", cpuFallbackReason+"; the plugin stays off")
		c.note("%s: the RAPIDS Accelerator is off and Spark runs on the CPU", cpuFallbackReason)
		if in.RapidsShuffle {
			c.note("RAPIDS shuffle was asked for but needs the plugin; Spark's own shuffle is used")
		}
		return
	}
	p("spark.plugins", SQLPlugin, "RAPIDS Accelerator plugin")
	p("spark.rapids.sql.enabled", "true", "RAPIDS Accelerator on (AutoTuner always recommends true)")
	p("spark.serializer", kryoSerializerClass, "AutoTuner: Kryo with the plugin's registrator")
	p("spark.kryo.registrator", GpuKryoRegistrator, "AutoTuner: registers the plugin's classes with Kryo")
	p("spark.kryoserializer.buffer.max", "512m", "AutoTuner: KRYO_SERIALIZER_BUFFER max 512m")
	p("spark.sql.files.maxPartitionBytes", "512m", "AutoTuner: MAX_PARTITION_BYTES baseline 512m")
	p("spark.executor.resource.gpu.amount", "1", "the plugin supports one GPU per executor")
	p("spark.task.resource.gpu.amount", "0.001", "AutoTuner: TASK_GPU_RESOURCE_AMT 0.001, so executor cores set task concurrency")
	p("spark.executor.resource.gpu.discoveryScript", in.DiscoveryScript, "devenv's discovery script: the GPUs given to the container")
	if in.Workers == 0 {
		p("spark.driver.resource.gpu.amount", "1", "local mode: the driver runs the tasks on one GPU")
		p("spark.driver.resource.gpu.discoveryScript", in.DiscoveryScript, "local mode: devenv's discovery script")
	}
	if in.RapidsShuffle {
		cls, _ := ShuffleManagerClass(in.Spark) // validated
		p("spark.shuffle.manager", cls, fmt.Sprintf("RAPIDS shuffle manager for Spark %s (shim spark%s)", in.Spark, strings.ReplaceAll(in.Spark, ".", "")))
	}
}

func applyHardware(c *Conf, in Input, d Deploy) {
	h := func(k, v, rule string) { c.set(k, v, SourceHardware, rule) }
	e := d.Executor
	if d.Mode == "local" {
		h("spark.master", d.MasterURL, "local mode (workers: 0): one JVM runs the driver and the tasks")
		h("spark.driver.memory", sparkSize(e.HeapBytes), "local mode, the driver is the executor: "+e.MemoryRule)
		h("spark.executor.cores", strconv.Itoa(e.Cores), fmt.Sprintf("the service's %d CPUs; the plugin sizes its reader threads from it", in.Hardware.CPUs))
	} else {
		h("spark.master", d.MasterURL, fmt.Sprintf("standalone: a master and %d workers", in.Workers))
		h("spark.driver.memory", sparkSize(d.Driver.HeapBytes), "standalone driver heap = 1/8 of the service's memory, within 1..8 GiB")
		h("spark.executor.memory", sparkSize(e.HeapBytes), e.MemoryRule)
		h("spark.executor.cores", strconv.Itoa(e.Cores), fmt.Sprintf("one executor per GPU: %d cores per worker / GPUs per worker", d.Workers[0].Cores))
	}
	slots := e.Count * e.Cores
	h("spark.sql.shuffle.partitions", strconv.Itoa(2*slots), fmt.Sprintf("2 x %d task slots: as few partitions as keep every core busy (tuning guide: as low as possible)", slots))
	if !in.gpuMode() {
		return
	}
	applyHostMemory(c, e)
	applyConcurrency(c, in)
	applyAllocFraction(c, in.Hardware.AllocFraction)
}

func applyHostMemory(c *Conf, e Executor) {
	if e.PinnedBytes == 0 {
		c.unset("spark.rapids.memory.pinnedPool.size", SourceHardware, "less than overhead + 4 GiB is left after the heap (AutoTuner minimum); the pinned pool stays off")
		return
	}
	c.set("spark.rapids.memory.pinnedPool.size", sparkSize(e.PinnedBytes), SourceHardware, "AutoTuner: pinned = min(8 GiB, (memory left after heap - overhead) / 2)")
	c.set("spark.rapids.memory.host.spillStorageSize", sparkSize(e.SpillBytes), SourceHardware, "AutoTuner: host spill = pinned pool size")
}

func applyConcurrency(c *Conf, in Input) {
	const key = "spark.rapids.sql.concurrentGpuTasks"
	rv, _ := parseVersion(in.Rapids, 3) // validated
	if !rv.less(selfTunedConcurrencyFrom) {
		c.unset(key, SourceHardware, fmt.Sprintf("RAPIDS %s (25.06.0 or later) tunes concurrent GPU tasks at runtime from GPU memory; the AutoTuner leaves it unset too", in.Rapids))
		return
	}
	frac := in.Hardware.AllocFraction
	if frac == 0 {
		frac = 1
	}
	gpuMiB := int64(float64(in.Hardware.GPUMemoryBytes/mib) * frac)
	n := min(max(gpuMiB/gpuMemPerTaskMiB, 1), maxConcurrentGPU)
	c.set(key, strconv.FormatInt(n, 10), SourceHardware, fmt.Sprintf("AutoTuner rule: concurrentGpuTasks = min(4, GPU MiB / 7500) = min(4, %d / 7500), at least 1", gpuMiB))
}

func applyAllocFraction(c *Conf, f float64) {
	if f == 0 {
		return
	}
	v := strconv.FormatFloat(f, 'f', -1, 64)
	rule := "the service's share of a shared GPU (GPU placement)"
	c.set("spark.rapids.memory.gpu.allocFraction", v, SourceHardware, rule)
	c.set("spark.rapids.memory.gpu.maxAllocFraction", v, SourceHardware, rule+"; caps the pool at the share")
	if f < 0.25 {
		c.set("spark.rapids.memory.gpu.minAllocFraction", v, SourceHardware, "below the plugin's 0.25 default, which must not exceed allocFraction")
	}
}

func applyMirror(c *Conf, in Input, l Layer) {
	for _, k := range slices.Sorted(maps.Keys(l.Conf)) {
		v := l.Conf[k]
		if why := mirrorDropReason(in, k, v); why != "" {
			shown, _ := redact.Value(k, v)
			dropped := fmt.Sprintf("%s=%s from %s not used: %s", k, shown, l.Source, why)
			if e, ok := c.entries[k]; ok {
				e.Rule += "; " + dropped
			} else {
				c.unset(k, SourceMirror, dropped)
			}
			continue
		}
		rule := l.Source
		if r := l.Rules[k]; r != "" {
			rule += ": " + r
		}
		c.override(k, v, SourceMirror, rule)
	}
	fitTaskCPUs(c)
	if l.Prod {
		markAbsent(c, l)
	}
}

// markAbsent notes, on each key devenv sizes for this machine, that prod's
// layer does not set it.
func markAbsent(c *Conf, l Layer) {
	for _, k := range slices.Sorted(maps.Keys(hardwareBound)) {
		e, ok := c.entries[k]
		if _, set := l.Conf[k]; ok && !set && e.Source != SourceMirror {
			e.Rule += "; " + l.Source + " does not set it (not prod's value)"
		}
	}
}

// fitTaskCPUs keeps a mirrored spark.task.cpus within the executor cores
// devenv sized, or no task could ever be scheduled.
func fitTaskCPUs(c *Conf) {
	t, ok := c.get("spark.task.cpus")
	e, eok := c.get("spark.executor.cores")
	if !ok || !eok || t.Source != SourceMirror {
		return
	}
	tn, err1 := strconv.Atoi(strings.TrimSpace(t.Value))
	en, err2 := strconv.Atoi(strings.TrimSpace(e.Value))
	if err1 == nil && err2 == nil && tn > en {
		t.Rule += fmt.Sprintf("; lowered from %d to the %d executor cores devenv sized, so a task can be scheduled", tn, en)
		t.Value = strconv.Itoa(en)
	}
}

// mirrorDropReason says why a mirrored key must not apply locally, or "".
func mirrorDropReason(in Input, k, v string) string {
	if redact.IsSecret(k, v) {
		return "it holds a secret, which devenv never copies from prod"
	}
	if hardwareBound[k] {
		return "it sizes prod's hardware; devenv sizes it for this machine"
	}
	if in.gpuMode() {
		return ""
	}
	switch {
	case k == "spark.rapids.sql.enabled":
		return cpuFallbackReason
	case k == "spark.shuffle.manager" && strings.Contains(v, "RapidsShuffleManager"):
		return cpuFallbackReason + " and the RAPIDS shuffle needs the plugin"
	}
	return ""
}

// finishLists makes sure each list key holds the plugin's class in GPU
// mode (appended, never replacing the list) and not in CPU mode.
func finishLists(c *Conf, gpu bool) {
	for _, lk := range listKeys {
		e, ok := c.get(lk.key)
		switch {
		case gpu && !ok:
			c.set(lk.key, lk.class, SourceProfile, "RAPIDS Accelerator class")
		case gpu:
			list := splitList(e.Value)
			if !slices.Contains(list, lk.class) {
				list = append(list, lk.class)
				e.Rule += fmt.Sprintf("; devenv appended %s, which the RAPIDS Accelerator needs", lk.class)
			}
			e.Value = strings.Join(list, ",")
		case !gpu && ok && slices.Contains(splitList(e.Value), lk.class):
			rest := remove(splitList(e.Value), lk.class)
			if len(rest) == 0 {
				c.unset(lk.key, SourceHardware, fmt.Sprintf("%s; %s removed (from %s)", cpuFallbackReason, lk.class, e.Rule))
				continue
			}
			e.Value = strings.Join(rest, ",")
			e.Rule += fmt.Sprintf("; %s removed: %s", lk.class, cpuFallbackReason)
		}
	}
	if !gpu {
		if _, ok := c.entries["spark.plugins"]; !ok {
			c.unset("spark.plugins", SourceProfile, cpuFallbackReason+"; com.nvidia.spark.SQLPlugin is not added")
		}
	}
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func remove(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
