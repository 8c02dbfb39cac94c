package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:      "build",
		Usage:     "build the images whose inputs changed",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "frozen", Usage: "refuse a missing or stale devenv.lock (exit 5)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "rebuild without the build cache"},
			&cli.BoolFlag{Name: "pull", Usage: "pull base images again"},
			lockTimeoutFlag(),
		},
		Action: func(c *cli.Context) error {
			p, err := openProject(c)
			if err != nil {
				return err
			}
			defer p.Close()
			res, err := p.Build(c.Context, app.BuildOptions{Services: args(c), Frozen: c.Bool("frozen"), NoCache: c.Bool("no-cache"), Pull: c.Bool("pull"), LockTimeout: lockTimeout(c)})
			if err != nil {
				return err
			}
			return printer(c).Result(res, func(w io.Writer) { view.Build(w, res) })
		},
	}
}
