// Package doctor checks whether this machine can run a devenv project: the
// Docker engine, its GPU support, the NVIDIA driver and GPUs against what the
// lock requires, GPU and host memory, disk, ports and WSL2 specifics. Every
// check ends pass, warn, fail or skip, with a one-line fix when it is not a
// pass. Diagnose reads a service's logs for well-known failure signatures.
package doctor

import (
	"context"

	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/redact"
)

// Check statuses.
const (
	Pass = "pass"
	Warn = "warn"
	Fail = "fail"
	Skip = "skip"
)

// GPU fact paths (Inputs.GPUPath).
const (
	GPUPathNVML   = "nvml"
	GPUPathEngine = "engine"
)

// Check IDs, stable for scripts reading `devenv doctor --json`.
const (
	IDEngine            = "engine"
	IDGPURuntime        = "gpu-runtime"
	IDNVML              = "nvml"
	IDDriver            = "driver"
	IDComputeCapability = "compute-capability"
	IDGPUMemory         = "gpu-memory"
	IDHostMemory        = "host-memory"
	IDDisk              = "disk"
	IDPorts             = "ports"
	IDPersistence       = "persistence-mode"
	IDWSL               = "wsl"
)

// Inputs are the facts doctor judges. Gather them once (the CLI does) so the
// checks themselves stay pure apart from the HostFacts functions.
type Inputs struct {
	Engine    engine.Engine // nil when the engine is unreachable
	EngineErr error         // why Engine is nil (or Info failed)
	// Info is the engine's answer to /info when the caller has it already;
	// nil: doctor asks Engine.
	Info   *engine.Info
	GPUs   *gpu.Host // nil when NVML could not be read
	GPUErr error     // why GPUs is nil
	// GPUPath says how GPUs were read: GPUPathNVML ("" too) or GPUPathEngine.
	GPUPath string
	// Endpoint is the engine's address and whether it is local; nil: judged
	// from Host.DockerHost.
	Endpoint *endpoint.Endpoint
	Project  *spec.Project // nil outside a project
	Lock     *lock.File    // nil without devenv.lock
	Services []string      // limit the service checks to these; empty means all
	// Compose is the command's read of Project's compose files (the port
	// checks want their services), shared with the plan; nil reads them.
	Compose *loader.Files
	Host    HostFacts
}

// HostFacts are the machine facts doctor reads, as functions so tests can
// describe any machine. LocalHost reads the real one.
type HostFacts struct {
	MemoryBytes   int64                            // physical memory; 0 when unknown
	DiskFreeBytes func(path string) (int64, error) // free bytes on the file system holding path
	PortFree      func(ip string, port int) bool   // whether ip:port can be bound
	PortOwner     func(port int) string            // the program listening on a TCP port; "" when unknown (nil: never known)
	WSL           bool                             // running inside WSL2
	LookPath      func(string) (string, error)     // like exec.LookPath
	// FileExists reports whether a path exists (used for WSL's driver libraries).
	FileExists func(path string) bool
	// GOOS is the operating system devenv runs on; empty means runtime.GOOS.
	GOOS string
	// DockerHost is $DOCKER_HOST; empty or unix:// means a local engine.
	DockerHost string
}

// Check is one finding of doctor.
type Check struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Status  string `json:"status"` // pass | warn | fail | skip
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
	Service string `json:"service,omitempty"`
}

// Report is every check doctor ran, in a stable order.
type Report struct {
	Checks []Check `json:"checks"`
}

// Failed reports whether any check failed.
func (r Report) Failed() bool {
	for _, c := range r.Checks {
		if c.Status == Fail {
			return true
		}
	}
	return false
}

// Run runs every check and returns the report. It never fails: what cannot
// be checked is reported as skipped with the reason.
func Run(ctx context.Context, in Inputs) Report {
	e := newEnv(ctx, in)
	var checks []Check
	for _, run := range allChecks {
		checks = append(checks, run(e)...)
	}
	for i := range checks {
		checks[i].redact()
	}
	return Report{Checks: checks}
}

// redact masks URL credentials (DOCKER_HOST=tcp://user:password@host, an
// ssh:// context with a password, a mirror's) in what a check says, so
// that no line, JSON field or report of doctor shows them: the one rule
// of internal/redact, applied where the report is made.
func (c *Check) redact() {
	c.Message, c.Fix = redact.URLs(c.Message), redact.URLs(c.Fix)
}

// allChecks run in this order; each returns zero or more checks.
var allChecks = []func(*env) []Check{
	checkEngine,
	checkGPURuntime,
	checkNVML,
	checkDrivers,
	checkComputeCapabilities,
	checkGPUMemory,
	checkPersistence,
	checkHostMemory,
	checkDisk,
	checkPorts,
	checkWSL,
}
