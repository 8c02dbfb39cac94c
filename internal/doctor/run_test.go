package doctor

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/enginegpu"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/gpu/gputest"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/profiles"
)

type scenario struct {
	name string
	in   func() Inputs
	want map[string]string // "id" or "id/service" -> status
	fix  map[string]string // "id" or "id/service" -> substring of the fix
	msg  map[string]string // "id" or "id/service" -> substring of the message
}

func sparkAndTriton(h *gpu.Host) Inputs {
	p, lf := project(cuda128, map[string]profiles.Requirements{"serve": triton},
		svc("spark", profiles.SparkRapids, one(), port(4040), port(8888)),
		svc("serve", profiles.Triton, one(), port(8000)))
	return inputs(h, p, lf)
}

func sparkOnly(h *gpu.Host, req profiles.Requirements) Inputs {
	p, lf := project(req, nil, svc("spark", profiles.SparkRapids, one()))
	return inputs(h, p, lf)
}

// remoteEngine is an ssh context's endpoint.
var remoteEngine = &endpoint.Endpoint{Context: "gpu", Source: "DOCKER_CONTEXT", Host: "ssh://me@gpubox", Kind: endpoint.SSH,
	SSH: &endpoint.SSHTarget{User: "me", Host: "gpubox"}}

var scenarios = []scenario{
	{name: "remote-engine-facts", in: func() Inputs {
		in := sparkOnly(gputest.Workstation(), cuda128)
		in.Endpoint, in.GPUPath = remoteEngine, GPUPathEngine
		return in
	}, want: map[string]string{"engine": Pass, "nvml": Pass, "driver/spark": Pass},
		msg: map[string]string{"engine": `context "gpu" (ssh://me@gpubox)`, "nvml": "through a probe container"}},
	{name: "remote-runtime-without-gpu", in: func() Inputs {
		in := sparkOnly(nil, cuda128)
		in.Endpoint, in.GPUPath = remoteEngine, GPUPathEngine
		in.GPUErr = fmt.Errorf("read the GPUs of the engine: %w", enginegpu.ErrNoGPU)
		return in
	}, want: map[string]string{"nvml": Fail}, fix: map[string]string{"nvml": "nvidia-ctk cdi generate"},
		msg: map[string]string{"nvml": "runtime is there but its machine shows no GPU"}},
	{name: "workstation-ok", in: func() Inputs { return sparkAndTriton(gputest.Workstation()) },
		want: map[string]string{"engine": Pass, "gpu-runtime": Pass, "nvml": Pass, "driver/spark": Pass, "driver/serve": Pass,
			"compute-capability/spark": Pass, "gpu-memory": Pass, "host-memory": Pass, "disk": Pass, "ports/spark": Pass, "wsl": Skip}},
	{name: "old-driver-cuda129", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), cuda129)
		in.GPUs.DriverVersion, in.GPUs.CUDADriverVersion = "520.61.05", "11.8"
		return in
	}, want: map[string]string{"driver/spark": Fail}, fix: map[string]string{"driver/spark": "525.60.13"}},
	{name: "minor-compat-cuda129", in: func() Inputs { return sparkOnly(gputest.Laptop(), cuda129) },
		want: map[string]string{"driver/spark": Warn}, fix: map[string]string{"driver/spark": "575.51.03"}},
	// the driver rule: data-center GPUs run CUDA 13 from R580 (minor-version
	// compatibility), others need the toolkit's own driver
	{name: "h100-cuda133-data-center-rule", in: func() Inputs {
		in := sparkOnly(gputest.H100x8(), cuda133)
		in.GPUs.DriverVersion, in.GPUs.CUDADriverVersion = "580.159.04", "13.0"
		return in
	}, want: map[string]string{"driver/spark": Pass}, msg: map[string]string{"driver/spark": "by the data-center rule"}},
	{name: "laptop-cuda133-toolkit-rule", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), cuda133)
		in.GPUs.DriverVersion, in.GPUs.CUDADriverVersion = "580.159.04", "13.0"
		return in
	}, want: map[string]string{"driver/spark": Fail}, fix: map[string]string{"driver/spark": "610.43.02"},
		msg: map[string]string{"driver/spark": "by the toolkit rule"}},
	{name: "laptop-data-center-lock-toolkit-rule", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), profiles.Requirements{MinDriver: "580.65.06", CUDA: "13.3", MinComputeCapability: "7.5"})
		in.GPUs.DriverVersion, in.GPUs.CUDADriverVersion = "590.48.01", "13.1"
		return in
	}, want: map[string]string{"driver/spark": Warn}, fix: map[string]string{"driver/spark": "610.43.02"},
		msg: map[string]string{"driver/spark": "by the toolkit rule"}},
	{name: "old-driver-optional", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), cuda129)
		in.Project.Services[0].GPU = "optional"
		in.GPUs.DriverVersion = "470.256.02"
		return in
	}, want: map[string]string{"driver/spark": Warn}},
	{name: "cc61-needs-70", in: func() Inputs {
		in := sparkOnly(gputest.Workstation(), cuda128)
		for i := range in.GPUs.GPUs {
			in.GPUs.GPUs[i].Name, in.GPUs.GPUs[i].ComputeCapability, in.GPUs.GPUs[i].Architecture = "Tesla P40", "6.1", "pascal"
		}
		return in
	}, want: map[string]string{"compute-capability/spark": Fail}, fix: map[string]string{"compute-capability/spark": "7.0"}},
	{name: "cc61-mixed", in: func() Inputs {
		in := sparkOnly(gputest.Workstation(), cuda128)
		in.GPUs.GPUs[1].ComputeCapability = "6.1"
		return in
	}, want: map[string]string{"compute-capability/spark": Warn}, fix: map[string]string{"compute-capability/spark": "gpus: [0]"}},
	{name: "laptop-two-spark", in: func() Inputs {
		p, lf := project(cuda128, nil, svc("etl", profiles.SparkRapids, one()), svc("ml", profiles.SparkRapids, one()))
		return inputs(gputest.Laptop(), p, lf)
	}, want: map[string]string{"gpu-memory": Pass}, msg: map[string]string{"gpu-memory": "etl: GPU 0, 3.6 GiB; ml: GPU 0, 3.6 GiB"}},
	{name: "laptop-crowded", in: func() Inputs {
		p, lf := project(cuda128, nil, svc("etl", profiles.SparkRapids, one()), svc("ml", profiles.SparkRapids, one()),
			svc("bi", profiles.SparkRapids, one()), svc("serve", profiles.Triton, one()))
		return inputs(gputest.Laptop(), p, lf)
	}, want: map[string]string{"gpu-memory": Warn}, fix: map[string]string{"gpu-memory": "separate GPUs"}},
	{name: "host-8gb", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), cuda128)
		in.Host.MemoryBytes = 8 << 30
		return in
	}, want: map[string]string{"host-memory": Fail}},
	{name: "host-24gb-spark", in: func() Inputs {
		in := sparkOnly(gputest.Workstation(), cuda128)
		in.Host.MemoryBytes = 24 << 30
		return in
	}, want: map[string]string{"host-memory": Warn}},
	{name: "no-runtime", in: func() Inputs {
		in := sparkOnly(gputest.Workstation(), cuda128)
		in.Engine = plainEngine()
		return in
	}, want: map[string]string{"gpu-runtime": Fail}, fix: map[string]string{"gpu-runtime": "nvidia-ctk runtime configure --runtime=docker"}},
	{name: "no-runtime-optional", in: func() Inputs {
		in := sparkOnly(gputest.Workstation(), cuda128)
		in.Project.Services[0].GPU = "optional"
		in.Engine = plainEngine()
		return in
	}, want: map[string]string{"gpu-runtime": Warn}},
	{name: "hook-only", in: func() Inputs {
		in := sparkOnly(gputest.Workstation(), cuda128)
		in.Engine = plainEngine()
		in.Host.LookPath = func(name string) (string, error) {
			if name == "nvidia-container-runtime-hook" {
				return "/usr/bin/" + name, nil
			}
			return "", errors.New("not found")
		}
		return in
	}, want: map[string]string{"gpu-runtime": Warn}},
	{name: "cdi", in: func() Inputs {
		in := sparkOnly(gputest.H100x8(), cuda128)
		f := plainEngine()
		f.InfoValue.CDISpecDirs = []string{"/etc/cdi", "/var/run/cdi"}
		in.Engine = f
		return in
	}, want: map[string]string{"gpu-runtime": Pass}},
	{name: "remote-engine", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), cuda128)
		in.Engine = plainEngine()
		in.Host.DockerHost = "tcp://gpu-box:2376"
		return in
	}, want: map[string]string{"gpu-runtime": Warn, "nvml": Skip, "driver/spark": Skip, "disk": Skip}},
	{name: "nogpu-required", in: func() Inputs { return sparkOnly(gputest.NoGPU(), cuda128) },
		want: map[string]string{"nvml": Fail, "gpu-memory": Fail, "driver/spark": Pass, "compute-capability/spark": Skip}},
	{name: "nogpu-optional", in: func() Inputs {
		in := sparkOnly(gputest.NoGPU(), cuda128)
		in.Project.Services[0].GPU = "optional"
		return in
	}, want: map[string]string{"nvml": Warn, "gpu-memory": Pass}},
	{name: "no-nvml-linux", in: func() Inputs {
		in := sparkOnly(nil, cuda128)
		in.GPUErr = errNoNVML
		return in
	}, want: map[string]string{"nvml": Fail, "driver/spark": Skip, "gpu-memory": Skip}},
	{name: "no-nvml-darwin", in: func() Inputs {
		in := sparkOnly(nil, cuda128)
		in.GPUErr = errNoNVML
		in.Host.GOOS = "darwin"
		return in
	}, want: map[string]string{"nvml": Skip, "persistence-mode": Skip}},
	{name: "h100x8-all", in: func() Inputs {
		p, lf := project(cuda128, map[string]profiles.Requirements{"serve": triton},
			svc("spark", profiles.SparkRapids, spec.GPUs{Set: true, All: true}),
			svc("serve", profiles.Triton, spec.GPUs{Set: true, Count: 2}))
		return inputs(gputest.H100x8(), p, lf)
		// H100s are data-center GPUs: driver 550 runs CUDA 12.8 by the family
		// floor (the data-center rule); it was a warning under the toolkit rule
	}, want: map[string]string{"driver/spark": Pass, "driver/serve": Pass, "compute-capability/spark": Pass, "compute-capability/serve": Pass, "persistence-mode": Pass},
		msg: map[string]string{"driver/spark": "by the data-center rule"}},
	{name: "a100-mig", in: func() Inputs {
		h := gputest.A100MIG()
		p, lf := project(cuda128, nil, svc("spark", profiles.SparkRapids, spec.GPUs{Set: true, IDs: []string{h.GPUs[0].MIGDevices[0].UUID}}))
		return inputs(h, p, lf)
	}, want: map[string]string{"compute-capability/spark": Pass, "gpu-memory": Pass}},
	{name: "unknown-gpu-id", in: func() Inputs {
		p, lf := project(cuda128, nil, svc("spark", profiles.SparkRapids, spec.GPUs{Set: true, IDs: []string{"7"}}))
		return inputs(gputest.Laptop(), p, lf)
	}, want: map[string]string{"gpu-memory": Fail}},
	{name: "engine-unreachable", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), cuda128)
		in.Engine, in.EngineErr = nil, errors.New("connect to the Docker Engine: dial unix /var/run/docker.sock: connect: no such file or directory\nStart Docker")
		return in
	}, want: map[string]string{"engine": Fail, "gpu-runtime": Skip, "disk": Skip}, fix: map[string]string{"engine": "systemctl start docker"}},
	{name: "disk-short", in: func() Inputs {
		in := sparkAndTriton(gputest.Workstation())
		in.Host.DiskFreeBytes = func(string) (int64, error) { return 15e9, nil }
		return in
	}, want: map[string]string{"disk": Fail}},
	{name: "disk-low", in: func() Inputs {
		in := sparkOnly(gputest.Workstation(), cuda128)
		in.Host.DiskFreeBytes = func(string) (int64, error) { return 18e9, nil }
		return in
	}, want: map[string]string{"disk": Warn}},
	{name: "docker-desktop-disk", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), cuda128)
		f := goodEngine()
		f.InfoValue.OS = "Docker Desktop"
		in.Engine = f
		in.Host.DiskFreeBytes = func(string) (int64, error) { return 1e9, nil }
		return in
	}, want: map[string]string{"disk": Skip}},
	{name: "port-busy", in: func() Inputs {
		in := sparkAndTriton(gputest.Workstation())
		in.Host.PortFree = func(_ string, p int) bool { return p != 8888 }
		return in
	}, want: map[string]string{"ports/spark": Fail, "ports/serve": Pass}},
	{name: "port-own-container", in: func() Inputs {
		in := sparkAndTriton(gputest.Workstation())
		in.Host.PortFree = func(_ string, p int) bool { return p != 8888 }
		in.Engine = withRunning(goodEngine(), "demo-spark", map[string]string{labels.Project: "demo"}, 8888)
		return in
	}, want: map[string]string{"ports/spark": Pass}},
	{name: "port-other-project", in: func() Inputs {
		in := sparkAndTriton(gputest.Workstation())
		in.Host.PortFree = func(_ string, p int) bool { return p != 8888 }
		in.Engine = withRunning(goodEngine(), "other-spark", map[string]string{labels.Project: "other"}, 8888)
		return in
	}, want: map[string]string{"ports/spark": Fail}},
	{name: "wsl-no-lib", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), cuda128)
		in.Host.WSL = true
		return in
	}, want: map[string]string{"wsl": Fail, "persistence-mode": Skip}},
	{name: "wsl-ok", in: func() Inputs {
		in := sparkOnly(gputest.Laptop(), cuda128)
		in.Host.WSL = true
		in.Host.FileExists = func(p string) bool { return p == "/usr/lib/wsl/lib/libnvidia-ml.so.1" }
		return in
	}, want: map[string]string{"wsl": Pass}},
	{name: "no-project", in: func() Inputs { return inputs(gputest.H100x8(), nil, nil) },
		want: map[string]string{"nvml": Pass, "gpu-memory": Skip, "gpu-runtime": Pass}},
	{name: "limit-services", in: func() Inputs {
		in := sparkAndTriton(gputest.Workstation())
		in.Services = []string{"serve"}
		return in
	}, want: map[string]string{"driver/serve": Pass, "driver/spark": ""}},
}

func TestRun(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			r := Run(t.Context(), sc.in())
			got := index(r)
			for key, want := range sc.want {
				if got[key].Status != want {
					t.Errorf("%s: status %q, want %q (message: %s)", key, got[key].Status, want, got[key].Message)
				}
			}
			for key, sub := range sc.fix {
				if !strings.Contains(got[key].Fix, sub) {
					t.Errorf("%s: fix %q does not mention %q", key, got[key].Fix, sub)
				}
			}
			for key, sub := range sc.msg {
				if !strings.Contains(got[key].Message, sub) {
					t.Errorf("%s: message %q does not mention %q", key, got[key].Message, sub)
				}
			}
			for _, c := range r.Checks {
				if c.Status != Pass && c.Status != Skip && c.Fix == "" {
					t.Errorf("%s: %s without a fix: %s", c.ID, c.Status, c.Message)
				}
			}
			golden(t, filepath.Join("testdata", "run", sc.name+".golden.json"), r)
		})
	}
}

// index keys checks by "id" and "id/service".
func index(r Report) map[string]Check {
	m := map[string]Check{}
	for _, c := range r.Checks {
		key := c.ID
		if c.Service != "" {
			key += "/" + c.Service
		}
		m[key] = c
	}
	return m
}

func golden(t *testing.T, path string, v any) {
	t.Helper()
	goldenfile.JSON(t, path, v)
}

func TestNoGPURuntime(t *testing.T) {
	none := func(string) (string, error) { return "", errors.New("not found") }
	hook := func(n string) (string, error) {
		if n == "nvidia-container-runtime-hook" {
			return "/usr/bin/" + n, nil
		}
		return "", errors.New("not found")
	}
	tests := []struct {
		name string
		info engine.Info
		host HostFacts
		want bool
	}{
		{"nothing at all", engine.Info{}, HostFacts{LookPath: none}, true},
		{"nvidia runtime", engine.Info{NvidiaRuntime: true}, HostFacts{LookPath: none}, false},
		{"CDI", engine.Info{CDISpecDirs: []string{"/etc/cdi"}}, HostFacts{LookPath: none}, false},
		{"hook only", engine.Info{}, HostFacts{LookPath: hook}, false},
		{"remote engine", engine.Info{}, HostFacts{LookPath: none, DockerHost: "tcp://gpu-box:2376"}, false},
		{"local socket", engine.Info{}, HostFacts{LookPath: none, DockerHost: "unix:///run/docker.sock"}, true},
	}
	for _, tt := range tests {
		if got := NoGPURuntime(tt.info, tt.host); got != tt.want {
			t.Errorf("%s: NoGPURuntime = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestUnreachableRemoteEngineFix: a context's engine that does not answer
// gets a fix about that engine and its ssh, not "start Docker" here.
func TestUnreachableRemoteEngineFix(t *testing.T) {
	ep := &endpoint.Endpoint{Context: "gpu", Source: "--context", Host: "ssh://me@gpubox:2222", Kind: endpoint.SSH,
		SSH: &endpoint.SSHTarget{User: "me", Host: "gpubox", Port: "2222"}}
	in := Inputs{EngineErr: &engine.Error{Op: "connect", Kind: engine.ErrUnreachable, Err: errors.New("ssh: connect to host gpubox port 2222: Connection refused"), Endpoint: ep},
		Host: goodHost(), GPUErr: errNoNVML}
	got := index(Run(t.Context(), in))
	if c := got["engine"]; c.Status != Fail || !strings.Contains(c.Fix, "ssh -p 2222 me@gpubox docker version") || !strings.Contains(c.Fix, "docker --context gpu info") {
		t.Errorf("engine check %+v", c)
	}
	if c := got["nvml"]; c.Status != Skip || !strings.Contains(c.Message, `context "gpu"`) {
		t.Errorf("nvml check %+v: this machine's NVML is not the engine's", c)
	}
}
