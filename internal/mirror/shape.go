package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// Prod's shape: what executors prod actually ran, read from the executors'
// added events and the resource profiles they ran under, not from the
// default profile alone.

// ResourceProfile is one resource profile an event log reports, with how
// many executors ran under it.
type ResourceProfile struct {
	ID               int     `json:"id"`
	ExecutorCores    int     `json:"executor_cores,omitempty"`
	ExecutorMemoryMB int64   `json:"executor_memory_mb,omitempty"`
	OverheadMB       int64   `json:"executor_memory_overhead_mb,omitempty"`
	OffHeapMB        int64   `json:"executor_offheap_mb,omitempty"`
	ExecutorGPUs     float64 `json:"executor_gpus,omitempty"`
	TaskCPUs         float64 `json:"task_cpus,omitempty"`
	TaskGPUs         float64 `json:"task_gpus,omitempty"`
	Executors        int     `json:"executors"` // executors added under it
	Used             bool    `json:"used"`      // the profile prod's shape is read from
}

// executorShapes counts what the executors' added events say.
type executorShapes struct {
	byProfile map[int]int         // profile id -> executors
	cores     map[int]map[int]int // profile id -> total cores -> executors
	gpus      map[int]int         // profile id -> most GPU addresses seen
	first     int                 // profile of the first executor
}

func (e *executorShapes) add(profile, cores, gpus int) {
	if e.byProfile == nil {
		e.byProfile, e.cores, e.gpus, e.first = map[int]int{}, map[int]map[int]int{}, map[int]int{}, profile
	}
	e.byProfile[profile]++
	if e.cores[profile] == nil {
		e.cores[profile] = map[int]int{}
	}
	if cores > 0 {
		e.cores[profile][cores]++
	}
	e.gpus[profile] = max(e.gpus[profile], gpus)
}

// used is the profile most executors ran under (the first executor's on a
// tie), and whether any executor was seen.
func (e *executorShapes) used() (int, bool) {
	if len(e.byProfile) == 0 {
		return 0, false
	}
	best, n := e.first, e.byProfile[e.first]
	for _, id := range slices.Sorted(maps.Keys(e.byProfile)) {
		if e.byProfile[id] > n {
			best, n = id, e.byProfile[id]
		}
	}
	return best, true
}

// commonCores is the core count most executors of a profile had.
func (e *executorShapes) commonCores(profile int) int {
	best, n := 0, 0
	for _, c := range slices.Sorted(maps.Keys(e.cores[profile])) {
		if e.cores[profile][c] > n {
			best, n = c, e.cores[profile][c]
		}
	}
	return best
}

func (s *logScan) resourceProfileAdded(line []byte) {
	var e resourceProfileEvent
	if s.decodeInto(line, &e) {
		if _, seen := s.rps[e.ID]; !seen && len(s.rps) < maxResourceProfiles {
			s.rps[e.ID] = &e
		}
	}
}

// maxResourceProfiles bounds the profiles kept from one log.
const maxResourceProfiles = 256

func (s *logScan) executorAdded(line []byte) {
	var e executorAddedEvent
	if !s.decodeInto(line, &e) {
		return
	}
	if e.ID == "driver" {
		s.driverCores = e.Info.TotalCores
		return
	}
	s.firstExec = true
	for k := range e.Info.Attributes {
		if k == "CONTAINER_ID" || strings.HasPrefix(k, "NM_") { // YARN's NodeManager attributes
			s.yarnAttrs = true
		}
	}
	if _, again := s.executors[e.ID]; again {
		return // an executor added twice is one executor
	}
	s.executors[e.ID] = e.Info.Host
	s.hosts[e.Info.Host] = true
	s.live++
	if s.live > s.peak {
		s.peak = s.live
	}
	gpus := len(e.Info.Resources["gpu"].Addresses)
	s.execGPUs = max(s.execGPUs, gpus)
	s.shapes.add(e.Info.Profile, e.Info.TotalCores, gpus)
}

// applyResources sets prod's executor shape: in local mode the driver's
// cores and memory; else the cores the executors were added with and the resource
// profile they ran under; every profile is listed.
func (s *logScan) applyResources(p *Profile) {
	used, sawExec := s.shapes.used()
	p.ResourceProfiles = s.profiles(used, sawExec)
	// local mode: the driver runs the tasks, with its cores and memory
	// (a log whose executors ran on other hosts was not a local run,
	// whatever spark.master says)
	local := !sawExec && p.applyLocalMaster(s.driverCores)
	if rp := s.rps[used]; rp != nil {
		src := fmt.Sprintf("eventlog:%s %d", evRP, rp.ID)
		if rp.ID == 0 {
			src += " (default)"
		}
		ex := rp.Executor
		if !local {
			setInt(&p.Topology.ExecutorCores, &p.Topology.ExecutorCoresProvenance, int(ex["cores"].Amount), src, true)
			if mb := int64(ex["memory"].Amount); mb > 0 {
				p.Topology.ExecutorMemoryMB, p.Topology.ExecutorMemoryMBProvenance = mb, src
			}
		}
		setFloat(&p.GPU.ExecutorGPUs, &p.GPU.ExecutorGPUsProvenance, ex["gpu"].Amount, src, true)
		setFloat(&p.GPU.TaskGPU, &p.GPU.TaskGPUProvenance, rp.Task["gpu"].Amount, src, true)
	}
	src := "eventlog:" + evExecAdded
	if sawExec {
		if !local {
			setInt(&p.Topology.ExecutorCores, &p.Topology.ExecutorCoresProvenance, s.shapes.commonCores(used),
				fmt.Sprintf("%s (Total Cores, resource profile %d)", src, used), true)
		}
		p.executorGPUsFromAddresses(s.shapes.gpus[used], used, src)
	}
	if local {
		return
	}
	if s.full {
		setInt(&p.Topology.Executors, &p.Topology.ExecutorsProvenance, s.peak, src+" (most at once)", true)
		p.Topology.Hosts = len(s.hosts)
		setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, len(s.hosts), src+" (distinct hosts)", false)
	}
}

// executorGPUsFromAddresses reads the executors' GPU count from the
// addresses ExecutorAdded lists, unless the resource profile requested a
// number: the addresses are the GPUs the discovery script saw (all of a
// host's, with a script that lists every GPU), the request is what each
// executor was given to use, and prod's request is what the local config
// follows.
func (p *Profile) executorGPUsFromAddresses(addrs, profile int, src string) {
	src = fmt.Sprintf("%s (gpu addresses, resource profile %d)", src, profile)
	if req := p.GPU.ExecutorGPUs; req > 0 && strings.HasPrefix(p.GPU.ExecutorGPUsProvenance, "eventlog:"+evRP) {
		if addrs > 0 && float64(addrs) != req {
			p.warn(fmt.Sprintf("executors list %d GPU addresses (%s) but resource profile %d requested %s GPU per executor (%s); prod's request is kept",
				addrs, src, profile, fmtFloat(req), p.GPU.ExecutorGPUsProvenance))
		}
		return
	}
	setFloat(&p.GPU.ExecutorGPUs, &p.GPU.ExecutorGPUsProvenance, float64(addrs), src, true)
}

// profiles lists the resource profiles the log reports, by id.
func (s *logScan) profiles(used int, sawExec bool) []ResourceProfile {
	var out []ResourceProfile
	for _, id := range slices.Sorted(maps.Keys(s.rps)) {
		rp := s.rps[id]
		ex := rp.Executor
		out = append(out, ResourceProfile{ID: id, ExecutorCores: int(ex["cores"].Amount), ExecutorMemoryMB: int64(ex["memory"].Amount),
			OverheadMB: int64(ex["memoryOverhead"].Amount), OffHeapMB: int64(ex["offHeap"].Amount), ExecutorGPUs: ex["gpu"].Amount,
			TaskCPUs: rp.Task["cpus"].Amount, TaskGPUs: rp.Task["gpu"].Amount, Executors: s.shapes.byProfile[id],
			Used: id == used && (sawExec || id == 0)})
	}
	return out
}

var localMasterRe = lazy.Regexp(`^local(?:-cluster)?\[(\*|\d+)(?:,\s*\d+)?\]$|^local$`)

// applyLocalMaster sets the shape of a local-mode run (spark.master local,
// local[N], local[*]): one executor, the driver, with N cores (for local[*]
// the driver's cores the log reports) and the driver's memory. It reports
// whether prod ran in local mode.
func (p *Profile) applyLocalMaster(driverCores int) bool {
	master := strings.TrimSpace(p.Conf["spark.master"])
	m := localMasterRe().FindStringSubmatch(master)
	if m == nil || strings.HasPrefix(master, "local-cluster") {
		return false
	}
	src := "conf:spark.master " + master
	switch {
	case m[1] == "" && master == "local":
		setInt(&p.Topology.ExecutorCores, &p.Topology.ExecutorCoresProvenance, 1, src, true)
	case m[1] == "*" && driverCores > 0:
		setInt(&p.Topology.ExecutorCores, &p.Topology.ExecutorCoresProvenance, driverCores, "eventlog:"+evExecAdded+" (driver's Total Cores, "+master+")", true)
	case m[1] != "*":
		n, _ := strconv.Atoi(m[1])
		setInt(&p.Topology.ExecutorCores, &p.Topology.ExecutorCoresProvenance, n, src, true)
	}
	p.Topology.Executors, p.Topology.ExecutorsProvenance = 1, src+" (the driver runs the tasks)"
	mb := int64(1024)
	memSrc := src + " (Spark's default driver memory, 1g)"
	if v, ok := p.Conf["spark.driver.memory"]; ok {
		if n, err := parseSizeMB(v, "m"); err == nil && n > 0 {
			mb, memSrc = n, "conf:spark.driver.memory (local mode: the driver runs the tasks)"
		}
	}
	p.Topology.ExecutorMemoryMB, p.Topology.ExecutorMemoryMBProvenance = mb, memSrc
	return true
}
