package enginegpu

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/labels"
)

// probeEngine is the fake engine with the probe's output as its log and the
// probe's spec recorded.
type probeEngine struct {
	*enginetest.Fake
	out   string
	specs []engine.ContainerSpec
}

func (p *probeEngine) Create(ctx context.Context, spec engine.ContainerSpec) (string, error) {
	p.specs = append(p.specs, spec)
	return p.Fake.Create(ctx, spec)
}

func (p *probeEngine) Logs(_ context.Context, _ string, _ engine.LogOptions, stdout, _ io.Writer) error {
	_, err := io.WriteString(stdout, p.out)
	return err
}

func newProbe(t *testing.T, fixture string) *probeEngine {
	t.Helper()
	b, err := os.ReadFile("testdata/" + fixture)
	if err != nil {
		t.Fatal(err)
	}
	f := enginetest.New()
	f.GPUs = true
	f.AddImage("busybox:glibc", nil)
	f.AddImage("devenv/demo-spark:0123456789ab", map[string]string{labels.Project: "demo"})
	return &probeEngine{Fake: f, out: string(b)}
}

// open opens the inventory on e with the default options.
func open(t *testing.T, e engine.Engine) *Inventory {
	t.Helper()
	inv, err := Open(t.Context(), e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

// hostOf is the host e's probe answers.
func hostOf(t *testing.T, e engine.Engine) *gpu.Host {
	t.Helper()
	h, err := open(t, e).Host(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// noProbeLeft fails the test when a probe container is still on e.
func noProbeLeft(t *testing.T, e engine.Engine) {
	t.Helper()
	if left, _ := e.List(t.Context(), engine.Containers, map[string]string{ProbeLabel: ""}); len(left) != 0 {
		t.Errorf("the probe container was left behind: %v", left)
	}
}

func TestHostFromProbe(t *testing.T) {
	e := newProbe(t, "h200x2-procs.txt")
	h := hostOf(t, e)
	if h.DriverVersion != "580.159.04" || h.CUDADriverVersion != "13.0" || len(h.GPUs) != 2 {
		t.Fatalf("host %+v", h)
	}
	g := h.GPUs[1]
	if g.Index != 1 || g.UUID != "GPU-1f0e44a2-7d3b-4c1e-9a55-6e2b0c8d9f10" || g.Name != "NVIDIA H200" ||
		g.MemoryTotal != 143771<<20 || g.ComputeCapability != "9.0" || !g.PersistenceMode {
		t.Errorf("GPU 1 %+v", g)
	}
	s := e.specs[0]
	if s.GPU == nil || !s.GPU.All || s.Labels[ProbeLabel] != "gpu" || s.PidMode != "" || s.Image != "devenv/demo-spark:0123456789ab" {
		t.Errorf("probe spec %+v", s)
	}
	noProbeLeft(t, e)
}

func TestRealH200Answer(t *testing.T) {
	e := newProbe(t, "h200-real.txt")
	h := hostOf(t, e)
	g := h.GPUs[0]
	if len(h.GPUs) != 1 || g.UUID != "GPU-fdbbf206-3e91-9a7b-3d5c-5e1da5ad4e21" || g.MemoryTotal != 150754820096 ||
		g.MemoryFree != 143156<<20 || g.PowerLimitW != 700 || h.CUDADriverVersion != "13.0" || h.DriverVersion != "580.159.04" {
		t.Errorf("read %+v from the H200's answer", h)
	}
}

func TestSamplesMapProcessesToContainers(t *testing.T) {
	e := newProbe(t, "h200x2-procs.txt")
	inv := open(t, e)
	ss, err := inv.Sample(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 2 || len(ss[0].Processes) != 1 || len(ss[1].Processes) != 0 {
		t.Fatalf("samples %+v", ss)
	}
	p := ss[0].Processes[0]
	if p.PID != 4242 || p.UsedMemory != 1024<<20 || !strings.HasPrefix(p.ContainerID, "3f1c8e1a9b2d") {
		t.Errorf("process %+v", p)
	}
	if e.specs[0].PidMode != "host" || e.specs[0].Cmd[0] != "procs" {
		t.Errorf("top's probe needs the host's pids: %+v", e.specs[0])
	}
}

func TestProbeFailures(t *testing.T) {
	tests := []struct {
		name, out string
		want      error
		text      string
	}{
		{"runtime present, no GPU", "--gpus\n--cuda\n--end\n", ErrNoGPU, ""},
		{"a truncated answer", "--gpus\n0, GPU-x, NVIDIA H200\n--end\n", nil, "has 3 fields"},
		{"no end marker", "devenv-probe: no nvidia-smi in the container\n", nil, "no nvidia-smi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newProbe(t, "h200x2-procs.txt")
			e.out = tt.out
			_, err := open(t, e).Host(t.Context())
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("error %v, want %v / %q", err, tt.want, tt.text)
			}
		})
	}
}

func TestNoGPURuntimeIsTheEnginesRefusal(t *testing.T) {
	e := newProbe(t, "h200x2-procs.txt")
	e.GPUs = false
	inv := open(t, e)
	if _, err := inv.Host(t.Context()); !errors.Is(err, engine.ErrNoGPURuntime) {
		t.Fatalf("error %v, want engine.ErrNoGPURuntime", err)
	}
	noProbeLeft(t, e)
}

func TestProbeImageChoice(t *testing.T) {
	f := enginetest.New()
	if _, err := Open(t.Context(), f, Options{}); !errors.Is(err, ErrNoProbeImage) {
		t.Fatalf("an engine without images: %v", err)
	}
	f.AddImage("busybox:glibc", nil)
	inv, err := Open(t.Context(), f, Options{})
	if err != nil || inv.Image() != "busybox:glibc" {
		t.Fatalf("any image when devenv has none: %v %v", inv, err)
	}
	_ = labels.Project
	inv, err = Open(t.Context(), f, Options{Image: "mine:1"})
	if err != nil || inv.Image() != "mine:1" {
		t.Fatalf("the image asked for: %v %v", inv, err)
	}
}
