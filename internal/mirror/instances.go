package mirror

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/internal/lazy"
	"go.yaml.in/yaml/v3"
)

//go:embed tables/instances.yaml
var instancesYAML []byte

// Instance is one cloud instance type's hardware, from the provider's page.
type Instance struct {
	Type        string  `yaml:"type" json:"type"`
	VCPUs       int     `yaml:"vcpus" json:"vcpus"`
	MemoryGB    float64 `yaml:"memory_gb" json:"memory_gb"`
	GPUs        int     `yaml:"gpus" json:"gpus"`
	GPU         string  `yaml:"gpu" json:"gpu,omitempty"`
	GPUMemoryGB int     `yaml:"gpu_memory_gb" json:"gpu_memory_gb,omitempty"`
	Source      string  `yaml:"source" json:"source"`           // the provider's page (URL)
	Unsure      bool    `yaml:"unsure" json:"unsure,omitempty"` // written from memory of Source, not re-checked
}

type instanceCatalog struct {
	Sources      map[string]string `yaml:"sources"`
	Instances    []Instance        `yaml:"instances"`
	Accelerators []Instance        `yaml:"accelerators"`
}

var (
	catalogOnce sync.Once
	catalog     map[string]Instance
	catalogErr  error
)

func loadCatalog() (map[string]Instance, error) {
	catalogOnce.Do(func() {
		var c instanceCatalog
		if catalogErr = yaml.Unmarshal(instancesYAML, &c); catalogErr != nil {
			return
		}
		catalog = map[string]Instance{}
		for _, list := range [][]Instance{c.Instances, c.Accelerators} {
			for _, in := range list {
				url, ok := c.Sources[in.Source]
				if !ok {
					catalogErr = fmt.Errorf("instance catalog: %s cites unknown source %q", in.Type, in.Source)
					return
				}
				in.Source = url
				catalog[strings.ToLower(in.Type)] = in
			}
		}
	})
	return catalog, catalogErr
}

// LookupInstance finds an instance type (or a GCP accelerator type) in the
// catalog; case does not matter.
func LookupInstance(name string) (Instance, bool) {
	c, err := loadCatalog()
	if err != nil || name == "" {
		return Instance{}, false
	}
	in, ok := c[strings.ToLower(strings.TrimSpace(name))]
	return in, ok
}

// applyCatalog fills what the worker's instance type says about GPUs,
// vCPUs and memory, never over a fact the description gave directly; an
// unknown type is said to be unknown.
func (p *Profile) applyCatalog() {
	t := p.Topology.WorkerType
	if t == "" {
		return
	}
	if vcpus, memMB, ok := gceCustomType(t); ok {
		// the name states the shape: no catalog row needed
		src := "instance type name " + t + " (a Compute Engine custom machine type: custom-<vCPUs>-<memory MB>)"
		setInt(&p.Topology.WorkerVCPUs, &p.Topology.WorkerHardwareProvenance, vcpus, src, false)
		p.Topology.WorkerMemoryMB = memMB
		return
	}
	in, ok := LookupInstance(t)
	if !ok {
		p.warn(fmt.Sprintf("worker type %s is not in devenv's instance catalog: its GPUs, vCPUs and memory are unknown", t))
		return
	}
	src := "catalog:" + t + " (" + in.Source + ")"
	if in.Unsure {
		src += " (unsure: not re-checked against that page)"
	}
	setInt(&p.Topology.WorkerVCPUs, &p.Topology.WorkerHardwareProvenance, in.VCPUs, src, false)
	p.Topology.WorkerMemoryMB = int64(in.MemoryGB * 1024)
	if in.GPUs > 0 {
		setInt(&p.GPU.PerNode, &p.GPU.PerNodeProvenance, in.GPUs, src, false)
		setStr(&p.GPU.Model, &p.GPU.ModelProvenance, in.GPU, src, false)
	}
	if p.GPU.MemoryMB == 0 {
		if acc, ok := LookupInstance(p.gpuAcceleratorType()); ok {
			p.GPU.MemoryMB = int64(acc.GPUMemoryGB) * 1024
		} else if in.GPUs > 0 && strings.EqualFold(in.GPU, p.GPU.Model) {
			p.GPU.MemoryMB = int64(in.GPUMemoryGB) * 1024
		}
	}
	if p.Source.Platform == "databricks" {
		// Databricks runs one executor per worker, with all its cores and GPUs
		setInt(&p.Topology.ExecutorCores, &p.Topology.ExecutorCoresProvenance, in.VCPUs, src+", one executor per worker", false)
		setFloat(&p.GPU.ExecutorGPUs, &p.GPU.ExecutorGPUsProvenance, float64(p.GPU.PerNode), src+", one executor per worker", false)
	}
}

// gceCustomRe is a Compute Engine custom machine type: custom-32-102400,
// n2-custom-8-16384, with -ext for extended memory ("custom-1-4096, where
// 1 indicates the number of vCPUs and 4096 the memory in MB", the Google
// APIs' machineType reference; the series prefixes of Compute Engine's
// custom machine type samples).
var gceCustomRe = lazy.Regexp(`^(?:[a-z][a-z0-9]*-)?custom-(\d+)-(\d+)(?:-ext)?$`)

// gceCustomType reads a custom machine type's vCPUs and memory (MB) from
// its name, as Compute Engine names them.
func gceCustomType(t string) (vcpus int, memMB int64, ok bool) {
	m := gceCustomRe().FindStringSubmatch(t)
	if m == nil {
		return 0, 0, false
	}
	v, err1 := strconv.Atoi(m[1])
	mem, err2 := strconv.ParseInt(m[2], 10, 64)
	if err1 != nil || err2 != nil || v <= 0 || mem <= 0 {
		return 0, 0, false
	}
	return v, mem, true
}

// gpuAcceleratorType is the GCP accelerator type behind GPU.Model when
// Dataproc attached it ("" otherwise).
func (p *Profile) gpuAcceleratorType() string {
	return p.GPU.AcceleratorType
}

// RunsOnGPUs reports whether prod runs on GPUs: GPUs per node or per
// executor, the RAPIDS Accelerator on, or GPU nodes of an unknown count.
func (p *Profile) RunsOnGPUs() bool {
	g := p.GPU
	return g.PerNode > 0 || g.ExecutorGPUs > 0 || g.RapidsEnabled || g.OnGPUNodes != ""
}

// GPUSummary says what prod's workers have: "4x T4 16 GB per node", "no
// GPU", or what is unknown.
func (p *Profile) GPUSummary() string {
	g := p.GPU
	if g.PerNode == 0 && g.Model == "" && g.ExecutorGPUs == 0 && g.OnGPUNodes != "" {
		return "GPU nodes, how many GPUs each unknown (" + g.OnGPUNodes + ")"
	}
	if g.PerNode == 0 && g.Model == "" {
		if _, ok := LookupInstance(p.Topology.WorkerType); ok {
			return "no GPU per node (" + p.Topology.WorkerType + ")"
		}
		if p.Topology.WorkerType != "" {
			return "unknown (" + p.Topology.WorkerType + " is not in the instance catalog)"
		}
		if g.ExecutorGPUs > 0 {
			return fmt.Sprintf("%s GPU(s) per executor; per node unknown", fmtFloat(g.ExecutorGPUs))
		}
		return "unknown"
	}
	count, model, mem := "unknown number of", g.Model, "unknown memory"
	if g.PerNode > 0 {
		count = fmt.Sprintf("%dx", g.PerNode)
	}
	if model == "" {
		model = "GPU (model unknown)"
	}
	if g.MemoryMB > 0 {
		mem = fmt.Sprintf("%d GB", g.MemoryMB/1024)
	}
	return fmt.Sprintf("%s %s %s per node", count, model, mem)
}
