package doctor

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
)

const (
	fixStartDocker = "start Docker (`sudo systemctl start docker`) or point DOCKER_HOST at a running engine; " +
		"if the socket refuses you, `sudo usermod -aG docker $USER` and log in again"
	fixToolkit = "install the NVIDIA Container Toolkit " +
		"(https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html), " +
		"then `sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker`"
	fixRegisterRuntime = "`sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker` " +
		"so `docker info` shows the nvidia runtime"
)

// toolkitHooks are the NVIDIA Container Toolkit programs whose presence on
// the daemon's PATH makes Docker register its nvidia device driver.
var toolkitHooks = []string{"nvidia-container-runtime-hook", "nvidia-cdi-hook"}

func checkEngine(e *env) []Check {
	c := Check{ID: IDEngine, Title: "Docker engine"}
	if e.info == nil {
		c.Status, c.Fix = Fail, fixStartDocker
		if ep := engine.RemoteEndpoint(e.infoErr); ep != nil {
			c.Fix = remoteFix(ep)
		}
		c.Message = "unreachable"
		if e.infoErr != nil {
			c.Message += ": " + firstLine(e.infoErr.Error())
		}
		return []Check{c}
	}
	c.Status = Pass
	c.Message = fmt.Sprintf("Docker %s reachable, API %s", e.info.ServerVersion, e.info.APIVersion)
	if e.info.OS != "" {
		c.Message += " on " + e.info.OS
	}
	if ep := e.in.Endpoint; ep != nil && (ep.Context != endpoint.DefaultContext || !ep.Local) {
		where := "remote"
		if ep.Local {
			where = "local"
		}
		c.Message += fmt.Sprintf(", at %s (%s, from %s)", ep, where, ep.Source)
	}
	return []Check{c}
}

// remoteFix is what to do about an engine of a context or another machine
// that does not answer.
func remoteFix(ep *endpoint.Endpoint) string {
	fix := "devenv uses " + ep.String() + " (from " + ep.Source + "): check that its engine runs (`" + ep.DockerCommand() + " info`)"
	if ep.SSH != nil {
		fix += " and that `" + ep.SSH.SSHCommand() + " docker version` works without a prompt"
	}
	return fix + "; pick another engine with --context, DOCKER_CONTEXT or `docker context use`"
}

func checkGPURuntime(e *env) []Check {
	c := Check{ID: IDGPURuntime, Title: "engine GPU support"}
	switch {
	case e.info == nil:
		c.Status, c.Message = Skip, "the engine is unreachable"
	case e.info.NvidiaRuntime:
		c.Status, c.Message = Pass, "the engine has the nvidia runtime configured"
	case len(e.info.CDISpecDirs) > 0:
		c.Status, c.Message = Pass, "the engine has CDI enabled (spec dirs "+strings.Join(e.info.CDISpecDirs, ", ")+")"
	case !e.localEngine():
		c.Status = Warn
		c.Message = "docker info at " + e.engineName() + " shows no nvidia runtime and no CDI; " +
			"the toolkit's hook alone would not show, so the engine's answer to a GPU request decides"
		c.Fix = "on the engine's host, check `docker run --rm --gpus all nvidia/cuda:12.9.1-base-ubuntu22.04 nvidia-smi`"
	default:
		return []Check{hookCheck(e, c)}
	}
	return []Check{c}
}

// hookCheck judges a local engine whose docker info shows no GPU support by
// looking for the toolkit's hook on PATH.
func hookCheck(e *env, c Check) Check {
	if hook := e.findHook(); hook != "" {
		c.Status = Warn
		c.Message = "docker info shows no nvidia runtime or CDI, but " + hook + " is installed, so GPU requests should work"
		c.Fix = fixRegisterRuntime
		return c
	}
	c.Message = "no nvidia runtime, no CDI and no NVIDIA Container Toolkit hook (" + strings.Join(toolkitHooks, ", ") + ") on PATH"
	c.Fix = fixToolkit
	c.Status = Warn
	if s, ok := e.firstRequiredGPU(); ok {
		c.Status = Fail
		c.Message += "; service " + s + " needs a GPU (gpu: required)"
	}
	return c
}

func (e *env) findHook() string {
	if e.in.Host.LookPath == nil {
		return ""
	}
	for _, h := range toolkitHooks {
		if p, err := e.in.Host.LookPath(h); err == nil {
			return p
		}
	}
	return ""
}

func (e *env) firstRequiredGPU() (string, bool) {
	for _, s := range e.gpuServices() {
		if s.required() {
			return s.Name, true
		}
	}
	return "", false
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// NoGPURuntime reports whether nothing suggests the engine can give
// containers GPUs: no nvidia runtime and no CDI in docker info, and, for a
// local engine, none of the NVIDIA Container Toolkit's hooks on PATH. A
// remote engine is never judged from here: its own answer decides.
func NoGPURuntime(info engine.Info, host HostFacts) bool {
	e := &env{in: Inputs{Host: host}, info: &info}
	if info.NvidiaRuntime || len(info.CDISpecDirs) > 0 || !e.localEngine() {
		return false
	}
	return e.findHook() == ""
}
