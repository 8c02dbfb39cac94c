package cli

import (
	"os"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

// mirror, repro and diff: the local environment next to production.

func mirrorCommand() *cli.Command {
	return &cli.Command{
		Name:      "mirror",
		Usage:     "make a service use production's versions and confs (cluster JSON/YAML, spark-defaults, spark-submit, event log)",
		ArgsUsage: "SOURCE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "service", Aliases: []string{"s"}, Usage: "the service to mirror into (default: the first spark-rapids service)"},
			&cli.StringFlag{Name: "format", Usage: "force the format: " + strings.Join(app.MirrorFormats(), ", ")},
			&cli.BoolFlag{Name: "full", Usage: "scan a whole event log (executor and GPU facts across the run)"},
			&cli.BoolFlag{Name: "print", Usage: "only print the normalized cluster profile; change nothing"},
			&cli.BoolFlag{Name: "accept-deviation", Usage: "mirror even when devenv cannot build prod's Spark line or Scala and takes the nearest (else exit 5)"},
			maxWindowFlag,
		},
		Action: checked(argsExactly(1), "usage: devenv mirror SOURCE [--service S] [--print]", runMirror),
	}
}

func runMirror(c *cli.Context) error {
	o := app.MirrorOptions{Source: c.Args().First(), Service: c.String("service"), Format: c.String("format"), Full: c.Bool("full"), MaxWindowMB: c.Int("max-window"),
		AcceptDeviation: c.Bool("accept-deviation")}
	if c.Bool("print") {
		o.Full = true // an event log is read whole, for what failed in prod (GB/s)
		prof, err := app.Import(c.Context, o.Source, o)
		return show(c, prof, err, view.Profile)
	}
	return projectAction(func(c *cli.Context, p *app.Project) error {
		res, err := p.Mirror(c.Context, o)
		if err == nil {
			say(c, res.Notes...)
		}
		return show(c, res, err, view.Mirror)
	})(c)
}

// maxWindowFlag lets event logs use zstd windows over the default, as
// `zstd --long=31` or `--memory` do; lock and up read DEVENV_MAX_WINDOW_MB.
var maxWindowFlag = &cli.IntFlag{Name: "max-window", Value: app.DefaultMaxWindowMB, EnvVars: []string{"DEVENV_MAX_WINDOW_MB"},
	Usage: "largest zstd window in `MiB` an event log may need (the zstd command line's default; more costs that much memory, as zstd --memory)"}

func reproCommand() *cli.Command {
	return &cli.Command{
		Name:      "repro",
		Usage:     "reproduce a prod failure from its event log: mirror, lock, up, run the job, compare (exit 0 when it reproduces, 1 when not)",
		ArgsUsage: "EVENTLOG [-- JOB ARGS...]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "job", Usage: "the job to run in the service (`FILE`: .py/.jar/.R via spark-submit, .sh via sh)"},
			&cli.StringFlag{Name: "service", Aliases: []string{"s"}, Usage: "the service to mirror into (default: the first spark-rapids service)"},
			maxWindowFlag,
		},
		Action: checked(func(c *cli.Context) bool { return c.NArg() >= 1 }, "usage: devenv repro EVENTLOG [--job FILE] [--service S] [-- JOB ARGS...]",
			projectAction(func(c *cli.Context, p *app.Project) error {
				res, err := p.Repro(c.Context, app.ReproOptions{EventLog: c.Args().First(), Job: c.String("job"), Args: afterDashes(args(c)[1:]),
					Service: c.String("service"), MaxWindowMB: c.Int("max-window"), Output: os.Stderr})
				if err := show(c, res, err, view.Repro); err != nil || res.Reproduced {
					return err
				}
				return app.WithExit(app.ExitFailure, errSilent)
			})),
	}
}

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "report drift between the locked local environment and production (exit 5 on behaviour drift)",
		ArgsUsage: "[SOURCE]  (default: the service's mirror: file)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "service", Aliases: []string{"s"}, Usage: "the local service to compare (default: the one that mirrors, else the first spark-rapids service)"},
			&cli.StringFlag{Name: "format", Usage: "force the source's format"},
		},
		Action: atMostArgs(1, projectAction(func(c *cli.Context, p *app.Project) error {
			res, err := p.Diff(c.Context, app.DiffOptions{Service: c.String("service"), Source: c.Args().First(), Format: c.String("format")})
			if err := show(c, res, err, view.Diff); err != nil || !res.Drifted {
				return err
			}
			return app.WithExit(app.ExitDrift, errSilent)
		})),
	}
}
