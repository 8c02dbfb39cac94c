package cli

import (
	"strconv"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func logsCommand() *cli.Command {
	return &cli.Command{
		Name:      "logs",
		Usage:     "show the services' logs",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f", "F"}, Usage: "keep printing new lines until Ctrl-C"},
			&cli.StringFlag{Name: "tail", Value: "all", Usage: "lines from the end to show (a number or all)"},
			&cli.BoolFlag{Name: "timestamps", Usage: "prefix each line with its time"},
			&cli.BoolFlag{Name: "diagnose", Usage: "explain well-known failures found in the logs"},
		},
		Action: func(c *cli.Context) error {
			if t := c.String("tail"); t != "all" {
				if n, err := strconv.Atoi(t); err != nil || n < 0 {
					return exitcode.Newf(exitcode.Usage, "--tail %q: give a number of lines or all", t)
				}
			}
			return projectAction(runLogs)(c)
		},
	}
}

func runLogs(c *cli.Context, p *app.Project) error {
	o := app.LogsOptions{Services: args(c), LogOptions: engine.LogOptions{Follow: c.Bool("follow"), Tail: c.String("tail"), Timestamps: c.Bool("timestamps")}}
	if c.Bool("diagnose") {
		d, err := p.Diagnose(c.Context, o)
		return show(c, d, err, view.Diagnoses)
	}
	asJSON := boolOpt(c, "json")
	if asJSON {
		o.Timestamps = true // each line's time becomes its "time" field
	}
	o.Line = view.LogLines(c.App.Writer, len(o.Services) != 1 && len(p.Spec.Services) > 1, asJSON)
	return quietInterrupt(c, p.Logs(c.Context, o))
}

// quietInterrupt makes a Ctrl-C that ends a follow (logs -f, jobs logs -f)
// exit 130 without a message: stopping is what the user asked for.
func quietInterrupt(c *cli.Context, err error) error {
	if c.Context.Err() != nil {
		return exitcode.With(exitcode.Interrupted, errSilent)
	}
	return err
}
