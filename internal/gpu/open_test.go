package gpu_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/devenv-dev/devenv/internal/gpu"
)

// TestOpenRealNVML checks what the machine's own NVML reports, when it has
// one; elsewhere it skips with the reason Open gave.
func TestOpenRealNVML(t *testing.T) {
	inv, err := gpu.Open()
	if err != nil {
		if !errors.Is(err, gpu.ErrNoNVML) {
			t.Fatalf("Open() = %v, want nil or an error wrapping ErrNoNVML", err)
		}
		t.Skipf("no NVML here: %v", err)
	}
	defer func() { _ = inv.Close() }()
	h, err := inv.Host(t.Context())
	if err != nil {
		t.Fatalf("Host() = %v", err)
	}
	t.Logf("driver %s, CUDA %s, NVML %s, %d GPUs", h.DriverVersion, h.CUDADriverVersion, h.NVMLVersion, len(h.GPUs))
	checkHostInvariants(t, h)
	if testing.Verbose() {
		b, _ := json.MarshalIndent(h, "", "  ")
		t.Logf("host JSON:\n%s", b)
	}
	samples, err := inv.Sample(t.Context())
	if err != nil {
		t.Fatalf("Sample() = %v", err)
	}
	if len(samples) != len(h.GPUs) {
		t.Errorf("Sample() returned %d GPUs, Host() %d", len(samples), len(h.GPUs))
	}
	for _, s := range samples {
		if s.MemoryUsed > s.MemoryTotal {
			t.Errorf("sample GPU %d: used %d > total %d", s.Index, s.MemoryUsed, s.MemoryTotal)
		}
	}
}

func checkHostInvariants(t *testing.T, h *gpu.Host) {
	t.Helper()
	if h.DriverVersion == "" {
		t.Error("empty driver version")
	}
	seen := map[string]bool{}
	for i, g := range h.GPUs {
		t.Logf("GPU %d: %s %s cc %s (%s), %d MiB, MIG %v", g.Index, g.UUID, g.Name, g.ComputeCapability, g.Architecture, g.MemoryTotal>>20, g.MIGMode)
		if g.Index != i {
			t.Errorf("GPU at position %d has index %d", i, g.Index)
		}
		if g.UUID == "" || seen[g.UUID] {
			t.Errorf("GPU %d: UUID %q empty or repeated", i, g.UUID)
		}
		seen[g.UUID] = true
		if g.MemoryTotal == 0 || g.MemoryFree+g.MemoryUsed > g.MemoryTotal {
			t.Errorf("GPU %d: memory free %d + used %d vs total %d", i, g.MemoryFree, g.MemoryUsed, g.MemoryTotal)
		}
		if g.ComputeCapability != "" && g.Architecture == "" {
			t.Errorf("GPU %d: compute capability %s has no architecture name", i, g.ComputeCapability)
		}
		if g.Utilization.GPU > 100 || g.Utilization.Memory > 100 {
			t.Errorf("GPU %d: utilization %+v over 100%%", i, g.Utilization)
		}
		for _, m := range g.MIGDevices {
			if m.UUID == "" || m.MemoryTotal > g.MemoryTotal {
				t.Errorf("GPU %d: MIG device %+v", i, m)
			}
		}
	}
	if n := len(h.GPUs); n > 1 && len(h.Topology) != n*(n-1)/2 {
		t.Errorf("%d GPUs but %d topology pairs, want %d", n, len(h.Topology), n*(n-1)/2)
	}
}
