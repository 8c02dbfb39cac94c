package app

import (
	"testing"

	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/mirror"
)

func TestCompareGPUs(t *testing.T) {
	t4x4 := &mirror.Profile{GPU: mirror.GPU{PerNode: 4, Model: "T4", MemoryMB: 16 << 10}}
	a100 := &mirror.Profile{GPU: mirror.GPU{PerNode: 8, Model: "A100", MemoryMB: 80 << 10}}
	unknown := &mirror.Profile{Topology: mirror.Topology{WorkerType: "x9.huge"}}
	h200 := &gpu.Host{GPUs: []gpu.GPU{{Name: "NVIDIA H200", MemoryTotal: 141 << 30}}}
	l4 := &gpu.Host{GPUs: []gpu.GPU{{Name: "NVIDIA L4", MemoryTotal: 24 << 30}, {Name: "NVIDIA L4", MemoryTotal: 24 << 30}}}
	cases := []struct {
		name        string
		prof        *mirror.Profile
		host        *gpu.Host
		status, msg string
	}{
		{"bigger GPU here", t4x4, h200, doctor.Pass, "prod: 4x T4 16 GB per node; here: 1x NVIDIA H200 (141 GB)"},
		{"smaller GPU here", a100, l4, doctor.Warn, "prod: 8x A100 80 GB per node; here: 2x NVIDIA L4 (24 GB)"},
		{"no GPU here", t4x4, nil, doctor.Warn, "prod: 4x T4 16 GB per node; here: no GPU (NVML not readable)"},
		{"prod unknown", unknown, h200, doctor.Pass, "prod: unknown (x9.huge is not in the instance catalog); here: 1x NVIDIA H200 (141 GB)"},
	}
	for _, tc := range cases {
		status, msg, _ := compareGPUs(tc.prof, tc.host)
		if status != tc.status || msg != tc.msg {
			t.Errorf("%s: %s %q, want %s %q", tc.name, status, msg, tc.status, tc.msg)
		}
	}
}
