package doctor

import (
	"fmt"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/internal/gpu"
)

const gib = 1 << 30

// checkGPUMemory places the GPU services on the GPUs the way `devenv up`
// does and reports each one's share of GPU memory and Place's warnings.
func checkGPUMemory(e *env) []Check {
	c := Check{ID: IDGPUMemory, Title: "GPU memory"}
	h, why := e.gpuHost()
	needs := e.needs()
	switch {
	case len(needs) == 0:
		c.Status, c.Message = Skip, "no service asks for a GPU"
	case h == nil:
		c.Status, c.Message = Skip, why
	default:
		judgePlacement(&c, e, needs, h)
	}
	return []Check{c}
}

func judgePlacement(c *Check, e *env, needs []gpu.Need, h *gpu.Host) {
	p, err := gpu.Place(needs, h)
	if err != nil {
		c.Status = Fail
		if !e.needsGPU() {
			c.Status = Warn
		}
		c.Message = strings.ReplaceAll(err.Error(), "\n", " ")
		c.Fix = "change the services' gpus: to GPUs this machine has (see `devenv gpus`), or mark them `gpu: optional`"
		return
	}
	c.Message = describePlacement(p)
	if len(p.Warnings) > 0 {
		c.Status = Warn
		c.Message += "; " + strings.Join(p.Warnings, "; ")
		c.Fix = "give the services separate GPUs with gpus: [index], or run fewer GPU services at once (`devenv up SERVICE`)"
		return
	}
	c.Status = Pass
}

// needs turns the GPU services into Place's input.
func (e *env) needs() []gpu.Need {
	var out []gpu.Need
	for _, s := range e.gpuServices() {
		n := gpu.Need{Service: s.Name, Kind: s.Kind, Optional: !s.required()}
		if s.Spec != nil {
			n.All, n.Count, n.IDs = s.Spec.GPUs.All, s.Spec.GPUs.Count, s.Spec.GPUs.IDs
		} else {
			n.Count = 1
		}
		out = append(out, n)
	}
	return out
}

func describePlacement(p *gpu.Placement) string {
	names := make([]string, 0, len(p.Services))
	for n := range p.Services {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		a := p.Services[n]
		switch {
		case a.CPUFallback:
			parts = append(parts, n+": CPU ("+a.Reason+")")
		case len(a.GPUs) > 0:
			parts = append(parts, fmt.Sprintf("%s: GPU %s, %s", n, joinInts(a.GPUs), humanBytes(a.MemoryBytes)))
		}
	}
	return strings.Join(parts, "; ")
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// humanBytes prints bytes in GiB with one decimal (MiB below 1 GiB).
func humanBytes(b int64) string {
	if b < gib {
		return fmt.Sprintf("%d MiB", b>>20)
	}
	return fmt.Sprintf("%.1f GiB", float64(b)/gib)
}
