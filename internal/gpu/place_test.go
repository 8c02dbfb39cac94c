package gpu_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"

	"github.com/hashicorp/go-multierror"

	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/gpu/gputest"
)

const migA = "MIG-20b210de-0000-4000-8000-000000000000"

// TestPlaceGolden places services on every machine shape and compares the
// Placement JSON with testdata/place/<name>.json. Regenerate with
// `go test ./internal/gpu -run TestPlaceGolden -update`.
func TestPlaceGolden(t *testing.T) {
	tests := []struct {
		name  string
		host  *gpu.Host
		needs []gpu.Need
	}{
		{"laptop-shared-by-three", gputest.Laptop(), []gpu.Need{
			{Service: "spark", Kind: "spark", Count: 1},
			{Service: "triton", Kind: "triton", Count: 1},
			{Service: "notebook", Kind: "rapids", Count: 1},
		}},
		{"laptop-four-too-small", gputest.Laptop(), []gpu.Need{
			{Service: "spark", Kind: "spark", Count: 1},
			{Service: "triton", Kind: "triton", Count: 1},
			{Service: "notebook", Kind: "rapids", Count: 1},
			{Service: "tool", Kind: "other", Count: 1},
			{Service: "db", Kind: "other"},
		}},
		{"workstation-spread", gputest.Workstation(), []gpu.Need{
			{Service: "spark", Kind: "spark", Count: 1},
			{Service: "triton", Kind: "triton", Count: 1},
		}},
		{"workstation-explicit-then-spread", gputest.Workstation(), []gpu.Need{
			{Service: "spark", Kind: "spark", Count: 1},
			{Service: "triton", Kind: "triton", IDs: []string{"1"}},
			{Service: "notebook", Kind: "rapids", Count: 1},
		}},
		{"workstation-count-too-high-optional", gputest.Workstation(), []gpu.Need{
			{Service: "spark", Kind: "spark", Count: 3, Optional: true},
		}},
		{"h100x8-all-and-count", gputest.H100x8(), []gpu.Need{
			{Service: "triton", Kind: "triton", All: true},
			{Service: "spark", Kind: "spark", Count: 2},
		}},
		{"h100x8-by-uuid", gputest.H100x8(), []gpu.Need{
			{Service: "spark", Kind: "spark", IDs: []string{"GPU-233010de-0000-4000-8000-000000000005", "7"}},
		}},
		{"a100-mig", gputest.A100MIG(), []gpu.Need{
			{Service: "spark", Kind: "spark", IDs: []string{migA}},
			{Service: "notebook", Kind: "rapids", Count: 1},
			{Service: "triton", Kind: "triton", Count: 1},
			{Service: "tool", Kind: "other", Count: 1},
		}},
		{"nogpu-optional", gputest.NoGPU(), []gpu.Need{
			{Service: "spark", Kind: "spark", Count: 1, Optional: true},
			{Service: "notebook", Kind: "rapids", All: true, Optional: true},
			{Service: "db", Kind: "other"},
		}},
		{"no-nvml-optional", nil, []gpu.Need{
			{Service: "spark", Kind: "spark", Count: 1, Optional: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := gpu.Place(tt.needs, tt.host)
			if err != nil {
				t.Fatalf("Place() = %v", err)
			}
			checkPlacementInvariants(t, tt.needs, tt.host, p)
			checkGolden(t, filepath.Join("testdata", "place", tt.name+".json"), p)
		})
	}
}

// checkPlacementInvariants holds for every placement, whatever the golden
// file says: shares of a device never exceed its memory, and every device
// is the host's.
func checkPlacementInvariants(t *testing.T, needs []gpu.Need, h *gpu.Host, p *gpu.Placement) {
	t.Helper()
	if len(p.Services) != len(needs) {
		t.Errorf("%d assignments for %d needs", len(p.Services), len(needs))
	}
	known := map[string]int64{}
	if h != nil {
		for _, g := range h.GPUs {
			known[g.UUID] = int64(g.MemoryFree)
			for _, m := range g.MIGDevices {
				known[m.UUID] = int64(m.MemoryTotal)
			}
		}
	}
	used := map[string]int64{}
	for name, a := range p.Services {
		for _, d := range a.Devices {
			if _, ok := known[d]; !ok {
				t.Errorf("%s: device %s is not on the host", name, d)
			}
			used[d] += a.MemoryBytes
		}
		if a.CPUFallback && len(a.Devices) > 0 {
			t.Errorf("%s: CPU fallback with devices %v", name, a.Devices)
		}
	}
	for d, u := range used {
		if u > known[d] {
			t.Errorf("device %s: shares add up to %d bytes, more than its %d", d, u, known[d])
		}
	}
}

func TestPlaceErrors(t *testing.T) {
	tests := []struct {
		name   string
		host   *gpu.Host
		needs  []gpu.Need
		noGPU  bool
		errors int
		want   []string
	}{
		{"required on no GPU", gputest.NoGPU(), []gpu.Need{{Service: "spark", Kind: "spark", Count: 1}},
			true, 1, []string{`service "spark" needs a GPU`, "sees no GPU", "optional"}},
		{"required without NVML", nil, []gpu.Need{{Service: "triton", Kind: "triton", All: true}},
			true, 1, []string{"could not be read"}},
		{"unknown ids", gputest.Workstation(), []gpu.Need{{Service: "spark", Kind: "spark", IDs: []string{"7", "GPU-nope"}}},
			false, 1, []string{`GPU id "7" is not on this host`, `"GPU-nope"`, "GPUs here: GPU 0 (NVIDIA RTX 6000 Ada Generation) GPU-26b110de"}},
		{"whole GPU in MIG mode", gputest.A100MIG(), []gpu.Need{{Service: "spark", Kind: "spark", IDs: []string{"0"}}},
			false, 1, []string{"GPU 0 is in MIG mode", migA}},
		{"count above GPUs", gputest.Workstation(), []gpu.Need{{Service: "spark", Kind: "spark", Count: 3}},
			false, 1, []string{"asks for 3 GPUs but this host has 2"}},
		{"invalid needs, all at once", gputest.Laptop(), []gpu.Need{
			{Service: "a", Kind: "spark", Count: -1},
			{Service: "a", Kind: "flink"},
			{Kind: "other"},
			{Service: "b", Kind: "triton", All: true, Count: 2},
		}, false, 5, []string{"negative", "listed twice", `kind "flink"`, "no service name", "more than one way"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := gpu.Place(tt.needs, tt.host)
			if err == nil {
				t.Fatalf("Place() = %+v, want an error", p)
			}
			if got := errors.Is(err, gpu.ErrNoGPU); got != tt.noGPU {
				t.Errorf("errors.Is(err, ErrNoGPU) = %v, want %v; err: %v", got, tt.noGPU, err)
			}
			var merr *multierror.Error
			if errors.As(err, &merr) && len(merr.Errors) != tt.errors {
				t.Errorf("%d errors, want %d: %v", len(merr.Errors), tt.errors, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func checkGolden(t *testing.T, path string, v any) {
	t.Helper()
	goldenfile.JSON(t, path, v)
}
