package cli

import (
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// version is set at link time: -ldflags "-X github.com/devenv-dev/devenv/internal/cli.version=v0.1.0".
var version = ""

// Version is devenv's version: the linked one, else the module's, else the VCS revision.
func Version() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "dev-" + s.Value[:12]
		}
	}
	return "dev"
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:   "version",
		Usage:  "print devenv's version (also devenv --version)",
		Action: printVersion,
	}
}

func printVersion(c *cli.Context) error {
	v := map[string]string{"version": Version(), "go": runtime.Version(), "os": runtime.GOOS, "arch": runtime.GOARCH}
	return printer(c).Result(v, func(w io.Writer) {
		_, _ = io.WriteString(w, "devenv "+v["version"]+" ("+v["go"]+", "+v["os"]+"/"+v["arch"]+")\n")
	})
}
