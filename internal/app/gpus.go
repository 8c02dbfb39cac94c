package app

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/labels"
)

// EngineHostCheck is what to run where the engine runs to see its GPUs.
const EngineHostCheck = "docker run --rm --gpus all nvidia/cuda:12.9.1-base-ubuntu22.04 nvidia-smi"

// NoGPUNote explains why no GPU facts could be read and what to run instead.
func NoGPUNote(err error) string {
	note := err.Error()
	if runtime.GOOS != "linux" {
		note += ". GPU facts come from the Docker engine's host (Docker Desktop / WSL2)"
	}
	return note + ". To see the GPUs the Docker engine can give containers, run: " + EngineHostCheck
}

// GPUsResult is `devenv gpus`: the NVML inventory, plus a note when there
// is nothing to show.
type GPUsResult struct {
	gpu.Host
	Note string `json:"note,omitempty"`
	// Source is how the GPUs were read: "nvml" (this machine) or "engine"
	// (the engine's machine, through a probe container).
	Source string `json:"source"`
	// Engine names the engine whose GPUs these are, when it is not local.
	Engine string `json:"engine,omitempty"`
}

// GPUs reads the inventory of the engine's machine by chooseGPUs' rule: this
// machine's NVML for a local engine (or none reachable), the engine's side
// for a remote one; no NVML or no GPU is a note, not an error.
func GPUs(ctx context.Context, opts Options) GPUsResult {
	opts = opts.withDefaults()
	res := GPUsResult{Host: gpu.Host{GPUs: []gpu.GPU{}}}
	eng, engErr := opts.Engine(ctx)
	if engine.NotThisMachine(engErr) {
		first, _, _ := strings.Cut(engErr.Error(), "\n")
		res.Source, res.Note = GPUPathEngine, "the GPUs of the engine devenv uses cannot be read, and this machine's are not its: "+first
		return res
	}
	if engErr != nil {
		eng = nil
	} else {
		defer func() { _ = eng.Close() }()
		if ep := engine.EndpointOf(eng); !ep.Local {
			res.Engine = ep.String()
		}
	}
	h, path, err := hostGPUs(ctx, opts, eng, nil)
	res.Source = path
	if err != nil {
		res.Note = NoGPUNote(err)
		return res
	}
	res.Host = *h
	if res.GPUs == nil {
		res.GPUs = []gpu.GPU{}
	}
	if len(res.GPUs) == 0 {
		res.Note = fmt.Sprintf("the NVIDIA driver %s loads but sees no GPU; check `nvidia-smi -L`", h.DriverVersion)
	}
	return res
}

// TopSample is one refresh of `devenv top`.
type TopSample struct {
	Time time.Time `json:"time"`
	GPUs []TopGPU  `json:"gpus"`
	Note string    `json:"note,omitempty"`
}

// TopGPU is one GPU's numbers and the processes on it.
type TopGPU struct {
	gpu.Sample
	Processes []TopProcess `json:"processes,omitempty"`
}

// TopProcess is a GPU process with the container and devenv service it
// belongs to, where known.
type TopProcess struct {
	gpu.Process
	Container string `json:"container,omitempty"`
	Project   string `json:"project,omitempty"`
	Service   string `json:"service,omitempty"`
}

// Sample reads the GPUs' numbers and names each process's container and
// devenv service (through procRoot's cgroups and the engine's labels; eng
// may be nil when the engine is unreachable).
func Sample(ctx context.Context, inv gpu.Inventory, eng engine.Engine, procRoot string) (TopSample, error) {
	samples, err := inv.Sample(ctx)
	if err != nil {
		return TopSample{}, err
	}
	owners := containerOwners(ctx, eng)
	s := TopSample{Time: time.Now().UTC(), GPUs: make([]TopGPU, 0, len(samples))}
	for _, g := range samples {
		tg := TopGPU{Sample: g}
		for _, p := range g.Processes {
			tg.Processes = append(tg.Processes, describeProcess(p, owners, procRoot))
		}
		tg.Sample.Processes = nil
		s.GPUs = append(s.GPUs, tg)
	}
	return s, nil
}

func describeProcess(p gpu.Process, owners map[string]engine.Object, procRoot string) TopProcess {
	tp := TopProcess{Process: p}
	id, ok := p.ContainerID, p.ContainerID != ""
	if !ok {
		id, ok = gpu.ContainerOfPID(procRoot, p.PID)
	}
	if !ok {
		return tp
	}
	tp.Container = id
	if len(id) > 12 {
		tp.Container = id[:12]
	}
	if o, ok := owners[id]; ok {
		tp.Project, tp.Service = o.Labels[labels.Project], o.Labels[labels.Service]
	}
	return tp
}

// containerOwners maps container ids to devenv's containers; empty when the
// engine is unreachable.
func containerOwners(ctx context.Context, eng engine.Engine) map[string]engine.Object {
	m := map[string]engine.Object{}
	if eng == nil {
		return m
	}
	objs, err := eng.List(ctx, engine.Containers, map[string]string{labels.Project: ""})
	if err != nil {
		return m
	}
	for _, o := range objs {
		m[o.ID] = o
	}
	return m
}
