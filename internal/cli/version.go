package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/buildinfo"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/urfave/cli/v2"
)

// VersionReport is `devenv version --json`.
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

// Version is devenv's version (see buildinfo.Version).
func Version() string { return buildinfo.Version() }

func versionCommand() *cli.Command {
	return &cli.Command{
		Name: "version",
		Usage: "print what was built: devenv's version, commit, build date, Go, Compose SDK and compose-go versions, " +
			"whether NVML was found (and its driver), and the engine devenv would use (also devenv --version)",
		Action: printVersion,
	}
}

func printVersion(c *cli.Context) error {
	r := VersionReport{Build: buildinfo.Read()}
	r.NVML = nvmlFacts(c.Context, worldOf(c).GPUs)
	r.Engine = engineFacts(endpoint.Options{Context: stringOpt(c, "context"), Host: stringOpt(c, "host")})
	return printer(c).Result(r, func(w io.Writer) { writeVersion(w, r) })
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

func engineFacts(o endpoint.Options) EngineFacts {
	e, err := endpoint.Resolve(o)
	if err != nil {
		return EngineFacts{Error: err.Error()}
	}
	return EngineFacts{Context: e.Context, Host: e.Host, Source: e.Source}
}

func writeVersion(w io.Writer, r VersionReport) {
	line := func(k, v string) {
		if v != "" {
			_, _ = fmt.Fprintf(w, "%-12s %s\n", k+":", v)
		}
	}
	_, _ = fmt.Fprintf(w, "devenv %s\n", r.Version) // the first line, as before: devenv VERSION
	c := r.Commit
	if r.Dirty {
		c = strings.TrimSpace(c + " (built from a tree with uncommitted changes)")
	}
	line("commit", c)
	line("built", r.Date)
	line("go", r.Go+" "+r.OS+"/"+r.Arch)
	line("compose SDK", r.ComposeSDK)
	line("compose-go", r.ComposeGo)
	switch {
	case r.NVML.Driver != "":
		line("nvml", "found, driver "+r.NVML.Driver+cudaSuffix(r.NVML.CUDA))
	case r.NVML.Found:
		line("nvml", "found; "+r.NVML.Reason)
	default:
		line("nvml", "not found: "+r.NVML.Reason)
	}
	if r.Engine.Error != "" {
		line("engine", "cannot tell: "+r.Engine.Error)
		return
	}
	eng := r.Engine.Host
	if r.Engine.Context != "" && r.Engine.Context != endpoint.DefaultContext {
		eng = fmt.Sprintf("context %q (%s)", r.Engine.Context, r.Engine.Host)
	}
	line("engine", eng+" (from "+r.Engine.Source+")")
}

func cudaSuffix(cuda string) string {
	if cuda == "" {
		return ""
	}
	return ", CUDA " + cuda
}
