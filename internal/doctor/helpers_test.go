package doctor

import (
	"context"

	"errors"
	"os/exec"

	"github.com/devenv-dev/devenv/internal/engine"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/profiles"
)

// svc is a devenv.yaml service for tests.
func svc(name, profile string, gpus spec.GPUs, ports ...spec.Port) *spec.Service {
	return &spec.Service{Name: name, Profile: profile, GPUs: gpus, GPU: "required", Ports: ports}
}

func one() spec.GPUs { return spec.GPUs{Set: true, Count: 1} }

func port(p int) spec.Port {
	return spec.Port{HostIP: "127.0.0.1", Host: p, Container: p, Protocol: "tcp"}
}

// Requirements as the catalog locks them (rapids-facts.md §5).
var (
	cuda128 = profiles.Requirements{MinDriver: "525.60.13", CUDA: "12.8", MinComputeCapability: "7.0"}
	cuda129 = profiles.Requirements{MinDriver: "525.60.13", CUDA: "12.9", MinComputeCapability: "7.0"}
	triton  = profiles.Requirements{MinDriver: "570.26", CUDA: "12.8", MinComputeCapability: "7.5"}
	cuda133 = profiles.Requirements{MinDriver: "610.43.02", CUDA: "13.3", MinComputeCapability: "7.5"}
)

// project builds a project and its lock; every service is locked with req
// unless reqs names it.
func project(req profiles.Requirements, reqs map[string]profiles.Requirements, services ...*spec.Service) (*spec.Project, *lock.File) {
	p := &spec.Project{Version: 1, Name: "demo", Dir: "/work/demo", File: "/work/demo/devenv.yaml", Services: services}
	lf := &lock.File{Version: 1, Project: "demo"}
	for _, s := range services {
		r := req
		if x, ok := reqs[s.Name]; ok {
			r = x
		}
		if s.Profile == profiles.Image {
			r = profiles.Requirements{}
		}
		lf.Services = append(lf.Services, lock.Service{Name: s.Name, Profile: s.Profile, Requires: r})
	}
	return p, lf
}

// goodEngine is a local engine with the nvidia runtime configured.
func goodEngine() *enginetest.Fake {
	f := enginetest.New()
	f.InfoValue.NvidiaRuntime = true
	f.InfoValue.Runtimes = []string{"nvidia", "runc"}
	f.InfoValue.DockerRootDir = "/var/lib/docker"
	f.InfoValue.MemTotal = 64 << 30
	f.InfoValue.OS = "Ubuntu 24.04 LTS"
	return f
}

// goodHost is a Linux machine with plenty of memory, disk and free ports,
// and no toolkit hook on PATH.
func goodHost() HostFacts {
	return HostFacts{
		MemoryBytes:   64 << 30,
		DiskFreeBytes: func(string) (int64, error) { return 500e9, nil },
		PortFree:      func(string, int) bool { return true },
		LookPath:      func(string) (string, error) { return "", exec.ErrNotFound },
		FileExists:    func(string) bool { return false },
		GOOS:          "linux",
	}
}

func inputs(h *gpu.Host, p *spec.Project, lf *lock.File) Inputs {
	return Inputs{Engine: goodEngine(), GPUs: h, Project: p, Lock: lf, Host: goodHost()}
}

var errNoNVML = errors.Join(gpu.ErrNoNVML, errors.New("libnvidia-ml.so.1 was not found"))

// plainEngine is a local engine whose docker info shows no GPU support.
func plainEngine() *enginetest.Fake {
	f := goodEngine()
	f.InfoValue.NvidiaRuntime = false
	f.InfoValue.Runtimes = []string{"runc"}
	return f
}

// withRunning adds a running container publishing hostPort to f.
func withRunning(f *enginetest.Fake, name string, labels map[string]string, hostPort int) *enginetest.Fake {
	ctx := context.Background() //nolint:forbidigo // called from the package-level scenario table, which has no *testing.T
	f.AddImage("x", nil)
	id, err := f.Create(ctx, engine.ContainerSpec{Name: name, Image: "x", Labels: labels,
		Ports: []engine.PortBinding{{HostIP: "127.0.0.1", HostPort: hostPort, ContainerPort: hostPort, Protocol: "tcp"}}})
	if err != nil {
		panic(err)
	}
	if err := f.Start(ctx, id); err != nil {
		panic(err)
	}
	return f
}
