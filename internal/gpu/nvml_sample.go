//go:build linux && cgo

package gpu

import (
	"context"
	"fmt"
	"sort"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// Sample reads utilization, memory, temperature, power, throttle reasons
// and processes of every GPU.
func (n *nvmlInventory) Sample(ctx context.Context) ([]Sample, error) {
	if err := n.ready(ctx); err != nil {
		return nil, err
	}
	r := &reader{}
	devs := r.devices(n.lib)
	out := make([]Sample, 0, len(devs))
	for i, d := range devs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, r.sample(d, i))
	}
	if err := r.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (r *reader) sample(d nvml.Device, i int) Sample {
	s := Sample{Index: i}
	where := fmt.Sprintf("GPU %d", i)
	if idx, ret := d.GetIndex(); r.required(ret, where, "its index") {
		s.Index = idx
	}
	if v, ret := d.GetUUID(); r.required(ret, where, "its UUID") {
		s.UUID = v
	}
	if m, ret := d.GetMemoryInfo(); r.required(ret, where, "its memory") {
		s.MemoryUsed, s.MemoryTotal = m.Used, m.Total
	}
	s.Utilization = r.utilization(d, where)
	s.TemperatureC = r.temperature(d, where)
	s.PowerDrawW = r.powerDraw(d, where)
	s.ThrottleReasons = r.throttleReasons(d, where)
	s.Processes = r.processes(d, where)
	return s
}

// processes merges the compute and graphics process lists, one entry per
// pid, sorted by pid.
func (r *reader) processes(d nvml.Device, where string) []Process {
	byPID := map[uint32]*Process{}
	add := func(list []nvml.ProcessInfo, kind string) {
		for _, p := range list {
			mem := p.UsedGpuMemory
			if mem == ^uint64(0) { // NVML_VALUE_NOT_AVAILABLE
				mem = 0
			}
			if cur, ok := byPID[p.Pid]; ok {
				if cur.Type != kind {
					cur.Type = "compute+graphics"
				}
				cur.UsedMemory = max(cur.UsedMemory, mem)
				continue
			}
			byPID[p.Pid] = &Process{PID: int(p.Pid), UsedMemory: mem, Type: kind}
		}
	}
	if list, ret := d.GetComputeRunningProcesses(); r.optional(ret, where, "its compute processes") {
		add(list, "compute")
	}
	if list, ret := d.GetGraphicsRunningProcesses(); r.optional(ret, where, "its graphics processes") {
		add(list, "graphics")
	}
	out := make([]Process, 0, len(byPID))
	for _, p := range byPID {
		out = append(out, *p)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].PID < out[b].PID })
	return out
}
