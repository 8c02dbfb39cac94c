package cli

import (
	"io"
	"strconv"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/urfave/cli/v2"
)

func logsCommand() *cli.Command {
	return &cli.Command{
		Name:      "logs",
		Usage:     "show the services' logs",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "follow", Aliases: []string{"F"}, Usage: "keep printing new lines"},
			&cli.StringFlag{Name: "tail", Value: "all", Usage: "lines from the end to show (a number or all)"},
			&cli.BoolFlag{Name: "timestamps", Usage: "prefix each line with its time"},
			&cli.BoolFlag{Name: "diagnose", Usage: "explain well-known failures found in the logs"},
		},
		Action: runLogs,
	}
}

func runLogs(c *cli.Context) error {
	if t := c.String("tail"); t != "all" {
		if n, err := strconv.Atoi(t); err != nil || n < 0 {
			return exitcode.Newf(exitcode.Usage, "--tail %q: give a number of lines or all", t)
		}
	}
	p, err := openProject(c)
	if err != nil {
		return err
	}
	defer p.Close()
	o := app.LogsOptions{Services: args(c), LogOptions: engine.LogOptions{Follow: c.Bool("follow"), Tail: c.String("tail"), Timestamps: c.Bool("timestamps")}}
	if !c.Bool("diagnose") {
		return p.Logs(c.Context, o, c.App.Writer)
	}
	d, err := p.Diagnose(c.Context, o)
	if err != nil {
		return err
	}
	return printer(c).Result(d, func(w io.Writer) { printDiagnoses(w, d) })
}
