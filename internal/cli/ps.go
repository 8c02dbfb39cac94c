package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func psCommand() *cli.Command {
	return &cli.Command{
		Name:  "ps",
		Usage: "list the project's containers: state, health, ports, GPUs, image",
		Action: func(c *cli.Context) error {
			p, err := openProject(c)
			if err != nil {
				return err
			}
			defer p.Close()
			st, err := p.Ps(c.Context)
			if err != nil {
				return err
			}
			return printer(c).Result(st, func(w io.Writer) { view.Ps(w, st) })
		},
	}
}
