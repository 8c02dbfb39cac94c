package cli

import (
	"io"
	"os"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

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
		Action: runRepro,
	}
}

func runRepro(c *cli.Context) error {
	if c.NArg() < 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv repro EVENTLOG [--job FILE] [--service S] [-- JOB ARGS...]")
	}
	p, err := openProject(c)
	if err != nil {
		return err
	}
	out := printer(c)
	res, err := p.Repro(c.Context, app.ReproOptions{EventLog: c.Args().First(), Job: c.String("job"), Args: afterDashes(args(c)[1:]),
		Service: c.String("service"), MaxWindowMB: c.Int("max-window"), Output: os.Stderr})
	if err != nil {
		return err
	}
	if err := out.Result(res, func(w io.Writer) { view.Repro(w, res) }); err != nil {
		return err
	}
	if !res.Reproduced {
		return exitcode.With(exitcode.Failure, errSilent)
	}
	return nil
}
