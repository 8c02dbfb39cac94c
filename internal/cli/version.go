package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/urfave/cli/v2"
)

// Version is devenv's version (see app.Version).
func Version() string { return app.Version() }

func versionCommand() *cli.Command {
	return &cli.Command{
		Name: "version",
		Usage: "print what was built: devenv's version, commit, build date, Go, Compose SDK and compose-go versions, " +
			"whether NVML was found (and its driver), and the engine devenv would use (also devenv --version)",
		Action: printVersion,
	}
}

func printVersion(c *cli.Context) error {
	r := app.ReadVersion(c.Context, worldOf(c), engineOptions(c))
	return printer(c).Result(r, func(w io.Writer) { writeVersion(w, r) })
}

func writeVersion(w io.Writer, r app.VersionReport) {
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
	if r.Engine.NamedContext() {
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
