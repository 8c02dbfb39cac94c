package enginegpu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/gpu"
)

// sections splits the probe's output at its "--name" lines.
func sections(out string) map[string][]string {
	s := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "--") {
			cur = strings.TrimPrefix(line, "--")
			s[cur] = s[cur][:0:0]
			continue
		}
		if line != "" && cur != "" {
			s[cur] = append(s[cur], line)
		}
	}
	return s
}

func parseHost(out string) (*gpu.Host, error) {
	sec := sections(out)
	h := &gpu.Host{GPUs: []gpu.GPU{}}
	for _, line := range sec["gpus"] {
		g, driver, err := parseGPU(line)
		if err != nil {
			return nil, err
		}
		h.DriverVersion = driver
		h.GPUs = append(h.GPUs, g)
	}
	if len(h.GPUs) == 0 {
		return nil, ErrNoGPU
	}
	for _, line := range sec["cuda"] {
		if _, v, ok := strings.Cut(line, ":"); ok {
			h.CUDADriverVersion = strings.TrimSpace(v)
		}
	}
	return h, nil
}

// parseGPU reads one line of --query-gpu=QueryFields, nounits (MiB, W, %).
func parseGPU(line string) (gpu.GPU, string, error) {
	f := strings.Split(line, ",")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	if len(f) != strings.Count(QueryFields, ",")+1 {
		return gpu.GPU{}, "", fmt.Errorf("devenv's GPU probe: nvidia-smi line %q has %d fields, want %d (%s)", line, len(f), strings.Count(QueryFields, ",")+1, QueryFields)
	}
	idx, err := strconv.Atoi(f[0])
	if err != nil {
		return gpu.GPU{}, "", fmt.Errorf("devenv's GPU probe: GPU index %q in %q", f[0], line)
	}
	g := gpu.GPU{
		Index: idx, UUID: f[1], Name: f[2],
		MemoryTotal: mib(f[3]), MemoryUsed: mib(f[4]), MemoryFree: mib(f[5]),
		ComputeCapability: known(f[7]), PCIBusID: known(f[8]),
		PersistenceMode: f[9] == "Enabled",
		Utilization:     gpu.Utilization{GPU: num(f[10]), Memory: num(f[11])},
		TemperatureC:    num(f[12]), PowerDrawW: float(f[13]), PowerLimitW: float(f[14]),
	}
	return g, f[6], nil
}

func parseSamples(out string) ([]gpu.Sample, error) {
	h, err := parseHost(out)
	if err != nil {
		return nil, err
	}
	sec := sections(out)
	byUUID := map[string]int{}
	samples := make([]gpu.Sample, len(h.GPUs))
	for i, g := range h.GPUs {
		byUUID[g.UUID] = i
		samples[i] = gpu.Sample{Index: g.Index, UUID: g.UUID, Utilization: g.Utilization, MemoryUsed: g.MemoryUsed,
			MemoryTotal: g.MemoryTotal, TemperatureC: g.TemperatureC, PowerDrawW: g.PowerDrawW}
	}
	cgroups := map[int]string{}
	for name, lines := range sec {
		if pid, ok := strings.CutPrefix(name, "cgroup "); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(pid)); err == nil {
				cgroups[n] = gpu.ContainerOfCgroup(strings.Join(lines, "\n"))
			}
		}
	}
	for _, line := range sec["apps"] {
		f := strings.Split(line, ",")
		if len(f) != 3 {
			continue
		}
		i, ok := byUUID[strings.TrimSpace(f[0])]
		pid, err := strconv.Atoi(strings.TrimSpace(f[1]))
		if !ok || err != nil {
			continue
		}
		samples[i].Processes = append(samples[i].Processes, gpu.Process{PID: pid, UsedMemory: mib(f[2]), Type: "compute", ContainerID: cgroups[pid]})
	}
	return samples, nil
}

// known is "" for nvidia-smi's "[N/A]" and "[Not Supported]".
func known(s string) string {
	if strings.HasPrefix(s, "[") || s == "N/A" {
		return ""
	}
	return s
}

func mib(s string) uint64 {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0
	}
	return v << 20
}

func num(s string) int {
	v, err := strconv.ParseFloat(known(s), 64)
	if err != nil {
		return 0
	}
	return int(v)
}

func float(s string) float64 {
	v, err := strconv.ParseFloat(known(s), 64)
	if err != nil {
		return 0
	}
	return v
}
