package cli

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/urfave/cli/v2"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write a commented starter devenv.yaml",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "profile", Value: profiles.SparkRapids, Usage: "spark-rapids | rapids | triton | image"},
			&cli.StringFlag{Name: "name", Usage: "project name (default: the directory name)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing devenv.yaml"},
		},
		Action: runInit,
	}
}

func runInit(c *cli.Context) error {
	res, err := app.Init(app.InitOptions{Dir: stringOpt(c, "project-dir"), File: stringOpt(c, "file"),
		Name: c.String("name"), Profile: c.String("profile"), Force: c.Bool("force")})
	if err != nil {
		return err
	}
	return printer(c).Result(res, func(w io.Writer) {
		fmt.Fprintf(w, "wrote %s (profile %s); next: devenv lock && devenv up\n", res.File, res.Profile)
	})
}
