package sparkconf

import (
	"fmt"
	"strconv"
)

// Sizing constants. The AutoTuner's come from NVIDIA/spark-rapids-tools
// tuningConfigs.yaml; devenv's own are marked so.
const (
	heapPerCore      = 2 * gib // AutoTuner HEAP_PER_CORE
	maxPinned        = 8 * gib // AutoTuner PINNED_MEMORY max
	minPinnedSpill   = 2 * gib // AutoTuner PINNED_MEMORY and SPILL_MEMORY defaults
	gpuMemPerTaskMiB = 7500    // AutoTuner GPU_MEM_PER_TASK
	maxConcurrentGPU = 4       // AutoTuner CONC_GPU_TASKS max
	holdBackPercent  = 20      // devenv: memory kept for Python workers, Jupyter and daemons
	minServiceMemory = 2 * gib // devenv: below this a JVM, Python and the plugin do not fit
	maxDriverHeap    = 8 * gib // devenv: standalone driver heap cap
	minDriverHeap    = 1 * gib // devenv: standalone driver heap floor
	masterPort       = 7077    // Spark standalone master's default port
)

// Deploy is how a service's Spark runs: local mode in one container, or a
// standalone master (which also runs the driver) and its workers.
type Deploy struct {
	Mode      string   `json:"mode"`       // "local" | "standalone"
	MasterURL string   `json:"master_url"` // local[*] or spark://<name>:7077
	Driver    Driver   `json:"driver"`
	Master    Node     `json:"master"` // the service's own container
	Workers   []Worker `json:"workers,omitempty"`
	Executor  Executor `json:"executor"`
	Notes     []string `json:"notes,omitempty"`
}

// Driver is the driver JVM's share.
type Driver struct {
	Cores     int   `json:"cores"`
	HeapBytes int64 `json:"heap_bytes"`
}

// Node is a container's share of the service's hardware.
type Node struct {
	Cores       int   `json:"cores"`
	MemoryBytes int64 `json:"memory_bytes"`
}

// Worker is one standalone worker container.
type Worker struct {
	Name string `json:"name"` // host name, <service>-worker-<n>
	Node
	// GPUs are positions in the service's GPU list ("0" is its first GPU);
	// the caller maps them to device IDs.
	GPUs []string          `json:"gpus,omitempty"`
	Env  map[string]string `json:"env"` // SPARK_WORKER_* settings for the container
}

// Executor is the settings of each executor (in local mode, of the driver
// that runs the tasks).
type Executor struct {
	Count         int    `json:"count"` // executors in the cluster
	Cores         int    `json:"cores"`
	HeapBytes     int64  `json:"heap_bytes"`
	OverheadBytes int64  `json:"overhead_bytes"`
	PinnedBytes   int64  `json:"pinned_bytes"` // 0: no pinned pool
	SpillBytes    int64  `json:"spill_bytes"`  // 0: plugin default
	GPUs          int    `json:"gpus"`         // per executor: 1, or 0 in CPU mode
	MemoryRule    string `json:"memory_rule"`
}

// Topology lays the service's hardware out as local mode or a standalone
// cluster. It assumes in passed Generate's validation; on nonsense input it
// still returns a shape, never panics.
func Topology(in Input) Deploy {
	if in.Workers <= 0 {
		return localTopology(in)
	}
	return standaloneTopology(in)
}

func localTopology(in Input) Deploy {
	hw := in.Hardware
	cores := max(hw.CPUs, 1)
	d := Deploy{Mode: "local", MasterURL: "local[*]", Master: Node{Cores: cores, MemoryBytes: hw.MemoryBytes}}
	d.Executor = sizeExecutor(cores, hw.MemoryBytes, in.gpuMode())
	d.Executor.Count = 1
	d.Driver = Driver{Cores: cores, HeapBytes: d.Executor.HeapBytes}
	if hw.GPUs > 1 {
		d.Notes = append(d.Notes, fmt.Sprintf("local mode runs one executor, which uses one of the service's %d GPUs; set workers: %d to use them all", hw.GPUs, hw.GPUs))
	}
	return d
}

func standaloneTopology(in Input) Deploy {
	hw := in.Hardware
	n := in.Workers
	driverHeap := min(max(roundDown(hw.MemoryBytes/8), minDriverHeap), maxDriverHeap)
	driverCores := 1
	if hw.CPUs >= 8 {
		driverCores = 2
	}
	d := Deploy{
		Mode:      "standalone",
		MasterURL: fmt.Sprintf("spark://%s:%d", in.name(), masterPort),
		Driver:    Driver{Cores: driverCores, HeapBytes: driverHeap},
		Master:    Node{Cores: driverCores, MemoryBytes: 2 * driverHeap},
	}
	workerCores := max((hw.CPUs-driverCores)/n, 1)
	workerMem := max((hw.MemoryBytes-d.Master.MemoryBytes)/int64(n), 0)
	gpusPerWorker := 0
	if hw.GPUs > 0 {
		gpusPerWorker = hw.GPUs / n
		if unused := hw.GPUs - gpusPerWorker*n; unused > 0 {
			d.Notes = append(d.Notes, fmt.Sprintf("%d of the service's %d GPUs are unused: %d workers take %d GPUs each", unused, hw.GPUs, n, gpusPerWorker))
		}
	}
	perWorker := max(gpusPerWorker, 1)
	d.Executor = sizeExecutor(max(workerCores/perWorker, 1), workerMem/int64(perWorker), hw.GPUs > 0)
	d.Executor.Count = n * perWorker
	for i := 0; i < n; i++ {
		d.Workers = append(d.Workers, newWorker(in, i, workerCores, workerMem, gpusPerWorker, d.Executor.HeapBytes*int64(perWorker)))
	}
	return d
}

func newWorker(in Input, i, cores int, mem int64, gpus int, sparkMem int64) Worker {
	w := Worker{
		Name: fmt.Sprintf("%s-worker-%d", in.name(), i+1),
		Node: Node{Cores: cores, MemoryBytes: mem},
		Env: map[string]string{
			"SPARK_WORKER_CORES":  strconv.Itoa(cores),
			"SPARK_WORKER_MEMORY": sparkSize(roundDown(sparkMem)),
		},
	}
	for g := 0; g < gpus; g++ {
		w.GPUs = append(w.GPUs, strconv.Itoa(i*gpus+g))
	}
	if gpus > 0 {
		w.Env["SPARK_WORKER_OPTS"] = fmt.Sprintf("-Dspark.worker.resource.gpu.amount=%d -Dspark.worker.resource.gpu.discoveryScript=%s", gpus, in.DiscoveryScript)
	}
	return w
}

// sizeExecutor sizes one executor from the cores and memory it may use.
//
// GPU mode follows the AutoTuner's memory rule with one devenv change: the
// heap gets at most half of what Spark may use (the AutoTuner gives it all
// and then finds no room for pinned and spill memory on small machines).
// CPU mode gives the heap everything but the 10% overhead.
func sizeExecutor(cores int, mem int64, gpu bool) Executor {
	avail := mem * (100 - holdBackPercent) / 100
	e := Executor{Cores: cores}
	if !gpu {
		e.HeapBytes = roundDown(min(heapPerCore*int64(cores), avail*10/11))
		e.OverheadBytes = e.HeapBytes / 10
		e.MemoryRule = fmt.Sprintf("heap = min(2 GiB x %d cores, what is left of %s after %d%% held back for Python and daemons and 10%% overhead)", cores, humanBytes(mem), holdBackPercent)
		return e
	}
	e.GPUs = 1
	e.HeapBytes = roundDown(min(heapPerCore*int64(cores), avail/2))
	e.OverheadBytes = e.HeapBytes / 10
	e.MemoryRule = fmt.Sprintf("heap = min(2 GiB x %d cores, half of %s less %d%% held back for Python and daemons)", cores, humanBytes(mem), holdBackPercent)
	left := avail - e.HeapBytes - e.OverheadBytes
	if left < 2*minPinnedSpill {
		return e
	}
	e.PinnedBytes = roundDown(min(maxPinned, left/2))
	e.SpillBytes = e.PinnedBytes
	return e
}
