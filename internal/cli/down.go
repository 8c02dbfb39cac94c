package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func downCommand() *cli.Command {
	return &cli.Command{
		Name:      "down",
		Usage:     "stop and remove the project's containers and network (with services: only their containers)",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "volumes", Usage: "also remove the project's named volumes (not with services)"},
			&cli.BoolFlag{Name: "rmi", Usage: "also remove the images devenv built for the project (or for the services named)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be removed and remove nothing"},
			lockTimeoutFlag(),
		},
		Action: func(c *cli.Context) error {
			p, err := openProject(c)
			if err != nil {
				return err
			}
			defer p.Close()
			res, err := p.Down(c.Context, app.DownOptions{Services: args(c), Volumes: c.Bool("volumes"), Images: c.Bool("rmi"),
				DryRun: c.Bool("dry-run"), LockTimeout: lockTimeout(c)})
			if err != nil {
				return err
			}
			return printer(c).Result(res, func(w io.Writer) { view.Down(w, res, args(c)) })
		},
	}
}
