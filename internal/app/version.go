package app

import (
	"context"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/buildinfo"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/gpu"
)

// VersionReport is what `devenv version` says (its --json): the build,
// whether NVML loads, and the engine devenv would use.
type VersionReport struct {
	buildinfo.Build
	NVML   NVMLFacts   `json:"nvml"`
	Engine EngineFacts `json:"engine"`
}

// NVMLFacts says whether this program can read the NVIDIA driver.
type NVMLFacts struct {
	Found  bool   `json:"found"`
	Driver string `json:"driver,omitempty"`
	CUDA   string `json:"cuda,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// EngineFacts is the engine devenv would use, as the docker CLI picks it;
// version does not connect to it.
type EngineFacts struct {
	Context string `json:"context,omitempty"`
	Host    string `json:"host,omitempty"`
	Source  string `json:"source,omitempty"`
	Error   string `json:"error,omitempty"`
}

// NamedContext says whether a docker context of the user's picked the
// engine: the docker CLI's default one is only its host.
func (e EngineFacts) NamedContext() bool {
	return e.Context != "" && e.Context != endpoint.DefaultContext
}

// Version is devenv's version (see buildinfo.Version).
func Version() string { return buildinfo.Version() }

// ReadVersion reads what `devenv version` reports: the build, NVML as
// every GPU command opens it through w, and the engine e picks. It fails
// for nothing: what cannot be read is said in the facts.
func ReadVersion(ctx context.Context, w World, e EngineOptions) VersionReport {
	return VersionReport{Build: buildinfo.Read(), NVML: nvmlFacts(ctx, w.withDefaults().GPUs), Engine: engineFacts(e.endpoint())}
}

// nvmlFacts opens NVML as every GPU command does and reads the driver.
func nvmlFacts(ctx context.Context, open func() (gpu.Inventory, error)) NVMLFacts {
	inv, err := open()
	if err != nil {
		return NVMLFacts{Reason: strings.TrimPrefix(err.Error(), gpu.ErrNoNVML.Error()+": ")}
	}
	defer func() { _ = inv.Close() }()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	h, err := inv.Host(ctx)
	if err != nil {
		return NVMLFacts{Found: true, Reason: "NVML is loaded but reading the driver failed: " + err.Error()}
	}
	return NVMLFacts{Found: true, Driver: h.DriverVersion, CUDA: h.CUDADriverVersion}
}

// engineFacts resolves the engine as docker/cli would, without reaching it.
func engineFacts(o endpoint.Options) EngineFacts {
	e, err := endpoint.Resolve(o)
	if err != nil {
		return EngineFacts{Error: err.Error()}
	}
	return EngineFacts{Context: e.Context, Host: e.Host, Source: e.Source}
}
