package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func configCommand() *cli.Command {
	return &cli.Command{
		Name:        "config",
		Usage:       "show the fully resolved configuration",
		ArgsUsage:   "[service...]",
		Action:      runConfig,
		Subcommands: []*cli.Command{configSparkCommand()},
	}
}

func runConfig(c *cli.Context) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	cfg, err := p.Config(c.Context, args(c))
	if err != nil {
		return err
	}
	return printer(c).Result(cfg, func(w io.Writer) { view.Config(w, cfg) })
}
