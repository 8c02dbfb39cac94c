package cli

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/urfave/cli/v2"
)

func downCommand() *cli.Command {
	return &cli.Command{
		Name:  "down",
		Usage: "stop and remove the project's containers and network",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "volumes", Usage: "also remove the project's named volumes"},
			&cli.BoolFlag{Name: "rmi", Usage: "also remove the images devenv built for the project"},
		},
		Action: func(c *cli.Context) error {
			p, err := openProject(c)
			if err != nil {
				return err
			}
			defer p.Close()
			res, err := p.Down(c.Context, app.DownOptions{Volumes: c.Bool("volumes"), Images: c.Bool("rmi")})
			if err != nil {
				return err
			}
			return printer(c).Result(res, func(w io.Writer) {
				fmt.Fprintf(w, "%s is down: %d objects removed\n", res.Project, len(res.Changes))
			})
		},
	}
}
