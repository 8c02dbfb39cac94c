package gpu

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestRealH200Fixture parses what devenv gpus --json printed on a real
// two-H200 machine and checks the facts devenv relies on, then places
// services on it.
func TestRealH200Fixture(t *testing.T) {
	data, err := os.ReadFile("testdata/real/h200x2-gpus.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var h Host
	if err := dec.Decode(&h); err != nil {
		t.Fatalf("the real output no longer decodes into Host: %v", err)
	}
	if h.DriverVersion != "580.159.04" || h.CUDADriverVersion != "13.0" || len(h.GPUs) != 2 {
		t.Fatalf("host %+v", h)
	}
	for _, g := range h.GPUs {
		if g.Architecture != "hopper" || g.ComputeCapability != "9.0" || !strings.HasPrefix(g.UUID, "GPU-") {
			t.Errorf("GPU %d: %s %s %s", g.Index, g.Architecture, g.ComputeCapability, g.UUID)
		}
		if g.MemoryUsed+g.MemoryFree > g.MemoryTotal || g.MemoryTotal < 140<<30 {
			t.Errorf("GPU %d memory %d used + %d free vs %d total", g.Index, g.MemoryUsed, g.MemoryFree, g.MemoryTotal)
		}
		if g.PCIeGeneration != 5 || g.PCIeWidth != 16 || g.PowerLimitW != 700 {
			t.Errorf("GPU %d link/power: gen %d x%d, %v W", g.Index, g.PCIeGeneration, g.PCIeWidth, g.PowerLimitW)
		}
	}
	if len(h.Topology) != 1 || h.Topology[0].Link != "NV18" || h.Topology[0].NVLinks != 18 {
		t.Errorf("topology %+v", h.Topology)
	}
	p, err := Place([]Need{{Service: "spark", Kind: KindSpark, Count: 1}, {Service: "serve", Kind: KindTriton, Count: 1}}, &h)
	if err != nil {
		t.Fatal(err)
	}
	a, b := p.Services["spark"], p.Services["serve"]
	if len(a.Devices) != 1 || len(b.Devices) != 1 || a.Devices[0] == b.Devices[0] {
		t.Errorf("two services on two H200s should get one GPU each: %v %v", a.Devices, b.Devices)
	}
}
