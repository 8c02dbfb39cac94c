package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/mirror"
)

// prodGPUChecks compares, for each service that mirrors prod, prod's GPUs
// per node (from the instance catalog or the description) with this
// machine's: "prod: 4x T4 16 GB per node; here: 1x NVIDIA H200 (141 GB)".
func prodGPUChecks(ctx context.Context, p *spec.Project, gh *gpu.Host) []doctor.Check {
	var out []doctor.Check
	for _, s := range p.Services {
		if s.Mirror == "" {
			continue
		}
		c := doctor.Check{ID: "prod-gpus", Title: "GPUs against prod", Service: s.Name}
		prof, err := mirror.ImportContext(ctx, s.Mirror, mirror.Options{Format: s.MirrorFormat})
		if err != nil {
			c.Status, c.Message = doctor.Skip, fmt.Sprintf("cannot read %s: %v", s.Mirror, err)
		} else {
			c.Status, c.Message, c.Fix = compareGPUs(prof, gh)
		}
		out = append(out, c)
	}
	return out
}

// compareGPUs says whether this machine's GPUs can stand in for prod's.
func compareGPUs(prof *mirror.Profile, gh *gpu.Host) (status, message, fix string) {
	here := "no GPU (NVML not readable)"
	var memMB uint64
	if gh != nil {
		here = localGPUs(gh)
		for _, g := range gh.GPUs {
			memMB = max(memMB, g.MemoryTotal>>20)
		}
	}
	message = "prod: " + prof.GPUSummary() + "; here: " + here
	prodGPUs := prof.RunsOnGPUs()
	switch {
	case prodGPUs && memMB == 0:
		return doctor.Warn, message, "GPU-only failures of prod cannot reproduce here; run on a machine with an NVIDIA GPU"
	case prodGPUs && prof.GPU.MemoryMB > 0 && int64(memMB) < prof.GPU.MemoryMB:
		return doctor.Warn, message, "a GPU with less memory than prod's may run out of memory where prod does not; lower spark.rapids.sql.batchSizeBytes locally"
	}
	return doctor.Pass, message, ""
}

// localGPUs is "1x NVIDIA H200 (141 GB)", GPUs of one name grouped.
func localGPUs(gh *gpu.Host) string {
	if len(gh.GPUs) == 0 {
		return "no GPU"
	}
	var parts []string
	count := map[string]int{}
	var order []string
	for _, g := range gh.GPUs {
		key := fmt.Sprintf("%s (%d GB)", g.Name, g.MemoryTotal>>30)
		if count[key] == 0 {
			order = append(order, key)
		}
		count[key]++
	}
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%dx %s", count[k], k))
	}
	return strings.Join(parts, ", ")
}
