package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

// configSparkCommand is `devenv config spark`, a subcommand of config.
func configSparkCommand() *cli.Command {
	return &cli.Command{
		Name:      "spark",
		Usage:     "show a spark-rapids service's generated spark-defaults; --explain says where each value came from",
		ArgsUsage: "[service]   (default: the first spark-rapids service)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "explain", Usage: "show every key's source (profile, hardware, mirror, user) and the rule or file behind it"},
		},
		Action: runConfigSpark,
	}
}

func runConfigSpark(c *cli.Context) error {
	if c.NArg() > 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv config spark [SERVICE] [--explain]")
	}
	p, err := openProject(c)
	if err != nil {
		return err
	}
	rep, err := p.Explain(c.Context, c.Args().First())
	if err != nil {
		return err
	}
	explain := c.Bool("explain")
	return printer(c).Result(rep, func(w io.Writer) {
		if explain {
			view.Explain(w, rep)
		} else {
			view.SparkDefaults(w, rep)
		}
	})
}
