package doctor

import (
	"context"
	"runtime"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/profiles"
)

// env is Inputs plus what every check shares: the engine's Info (read once)
// and the services in scope.
type env struct {
	ctx      context.Context
	in       Inputs
	info     *engine.Info // nil when the engine is unreachable
	infoErr  error
	services []service
}

// service joins a devenv.yaml service with its locked form; either may be
// missing (no project file, or no lock yet).
type service struct {
	Name string
	Kind string // spark | triton | rapids | other
	Spec *spec.Service
	Lock *lock.Service
}

func newEnv(ctx context.Context, in Inputs) *env {
	e := &env{ctx: ctx, in: in, services: servicesOf(in)}
	e.infoErr = in.EngineErr
	if in.Info != nil && in.EngineErr == nil {
		e.info = in.Info
		return e
	}
	if in.Engine != nil && in.EngineErr == nil {
		info, err := in.Engine.Info(ctx)
		if err == nil {
			e.info = &info
		} else {
			e.infoErr = err
		}
	}
	return e
}

// engineName is the engine for messages: its context and address.
func (e *env) engineName() string {
	if e.in.Endpoint != nil {
		return e.in.Endpoint.String()
	}
	if ep := engine.RemoteEndpoint(e.infoErr); ep != nil {
		return ep.String()
	}
	return e.in.Host.DockerHost
}

func (e *env) goos() string {
	if e.in.Host.GOOS != "" {
		return e.in.Host.GOOS
	}
	return runtime.GOOS
}

// localEngine reports whether the engine runs on this machine, so that this
// machine's GPUs and PATH are the engine's.
func (e *env) localEngine() bool {
	if e.in.Endpoint != nil {
		return e.in.Endpoint.Local
	}
	if ep := engine.RemoteEndpoint(e.infoErr); ep != nil {
		return ep.Local
	}
	h := e.in.Host.DockerHost
	return h == "" || strings.HasPrefix(h, "unix://")
}

// gpuServices are the services in scope that ask for a GPU.
func (e *env) gpuServices() []service {
	var out []service
	for _, s := range e.services {
		if s.wantsGPU() {
			out = append(out, s)
		}
	}
	return out
}

// needsGPU reports whether a service in scope must have a GPU to start.
func (e *env) needsGPU() bool {
	for _, s := range e.gpuServices() {
		if s.required() {
			return true
		}
	}
	return false
}

func (e *env) hasKind(kind string) bool {
	for _, s := range e.services {
		if s.Kind == kind {
			return true
		}
	}
	return false
}

// servicesOf lists the services in scope: devenv.yaml's in file order, then
// any only the lock knows, limited to in.Services when given.
func servicesOf(in Inputs) []service {
	want := map[string]bool{}
	for _, n := range in.Services {
		want[n] = true
	}
	keep := func(name string) bool { return len(want) == 0 || want[name] }
	var out []service
	seen := map[string]bool{}
	if in.Project != nil {
		for _, s := range in.Project.Services {
			if !keep(s.Name) {
				continue
			}
			svc := service{Name: s.Name, Spec: s, Kind: kindOf(in.Project.BaseProfile(s))}
			if in.Lock != nil {
				svc.Lock = in.Lock.Service(s.Name)
			}
			out = append(out, svc)
			seen[s.Name] = true
		}
	}
	if in.Lock != nil {
		for i := range in.Lock.Services {
			ls := &in.Lock.Services[i]
			if seen[ls.Name] || !keep(ls.Name) {
				continue
			}
			out = append(out, service{Name: ls.Name, Lock: ls, Kind: kindOf(ls.Profile)})
		}
	}
	return out
}

func kindOf(profile string) string {
	switch profile {
	case profiles.SparkRapids:
		return "spark"
	case profiles.Triton:
		return "triton"
	case profiles.Rapids:
		return "rapids"
	}
	return "other"
}

// wantsGPU: devenv.yaml's gpus: decides; without it, a lock that names a
// driver or CUDA requirement means a GPU image.
func (s service) wantsGPU() bool {
	if s.Spec != nil {
		return s.Spec.GPUs.Wants()
	}
	return s.Lock != nil && (s.Lock.Requires.MinDriver != "" || s.Lock.Requires.CUDA != "")
}

// required: `gpu: optional` services fall back to the CPU instead of failing.
func (s service) required() bool {
	return s.Spec == nil || s.Spec.GPU != "optional"
}

// severity is Fail for a service that needs its GPU, Warn for one that can
// fall back to the CPU.
func (s service) severity() string {
	if s.required() {
		return Fail
	}
	return Warn
}
