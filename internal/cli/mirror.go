package cli

import (
	"io"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func mirrorCommand() *cli.Command {
	return &cli.Command{
		Name:      "mirror",
		Usage:     "make a service use production's versions and confs (cluster JSON/YAML, spark-defaults, spark-submit, event log)",
		ArgsUsage: "SOURCE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "service", Aliases: []string{"s"}, Usage: "the service to mirror into (default: the first spark-rapids service)"},
			&cli.StringFlag{Name: "format", Usage: "force the format: " + strings.Join(mirror.Formats, ", ")},
			&cli.BoolFlag{Name: "full", Usage: "scan a whole event log (executor and GPU facts across the run)"},
			&cli.BoolFlag{Name: "print", Usage: "only print the normalized cluster profile; change nothing"},
			maxWindowFlag,
		},
		Action: runMirror,
	}
}

func runMirror(c *cli.Context) error {
	if c.NArg() != 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv mirror SOURCE [--service S] [--print]")
	}
	o := app.MirrorOptions{Source: c.Args().First(), Service: c.String("service"), Format: c.String("format"), Full: c.Bool("full"), MaxWindowMB: c.Int("max-window")}
	out := printer(c)
	if c.Bool("print") {
		o.Full = true // an event log is read whole, for what failed in prod (GB/s)
		prof, err := app.Import(o.Source, o)
		if err != nil {
			return err
		}
		return out.Result(prof, func(w io.Writer) { view.Profile(w, prof) })
	}
	p, err := openProject(c)
	if err != nil {
		return err
	}
	res, err := p.Mirror(c.Context, o)
	if err != nil {
		return err
	}
	for _, n := range res.Notes {
		out.Say("%s", n)
	}
	return out.Result(res, func(w io.Writer) { view.Mirror(w, res) })
}

// maxWindowFlag lets event logs use zstd windows over the default, as
// `zstd --long=31` or `--memory` do; lock and up read DEVENV_MAX_WINDOW_MB.
var maxWindowFlag = &cli.IntFlag{Name: "max-window", Value: mirror.DefaultMaxWindowMB, EnvVars: []string{"DEVENV_MAX_WINDOW_MB"},
	Usage: "largest zstd window in `MiB` an event log may need (the zstd command line's default; more costs that much memory, as zstd --memory)"}
