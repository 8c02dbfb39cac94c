package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "report drift between the locked local environment and production (exit 5 on behaviour drift)",
		ArgsUsage: "[SOURCE]  (default: the service's mirror: file)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "service", Aliases: []string{"s"}, Usage: "the local service to compare (default: the one that mirrors, else the first spark-rapids service)"},
			&cli.StringFlag{Name: "format", Usage: "force the source's format"},
		},
		Action: atMostArgs(1, runDiff),
	}
}

func runDiff(c *cli.Context) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	res, err := p.Diff(c.Context, app.DiffOptions{Service: c.String("service"), Source: c.Args().First(), Format: c.String("format")})
	if err != nil {
		return err
	}
	if err := printer(c).Result(res, func(w io.Writer) { view.Diff(w, res) }); err != nil {
		return err
	}
	if res.Drifted {
		return exitcode.With(exitcode.Drift, errSilent)
	}
	return nil
}
