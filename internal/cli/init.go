package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

// init and profiles: starting a project.

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write a commented starter devenv.yaml",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "profile", Value: app.DefaultInitProfile, Usage: "spark-rapids | rapids | triton | image"},
			&cli.StringFlag{Name: "name", Usage: "project name (default: the directory name)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing devenv.yaml"},
		},
		Action: func(c *cli.Context) error {
			res, err := app.Init(app.InitOptions{Dir: stringOpt(c, "project-dir"), File: stringOpt(c, "file"),
				Name: c.String("name"), Profile: c.String("profile"), Force: c.Bool("force")})
			return show(c, res, err, view.Init)
		},
	}
}

func profilesCommand() *cli.Command {
	return &cli.Command{
		Name:  "profiles",
		Usage: "show the built-in profiles and their compatibility matrix",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "outdated", Usage: "read the publishers' listings (Maven, NGC, Apache, through the mirrors) and name releases devenv's catalog does not know yet"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("outdated") {
				return outdated(c)
			}
			s := app.ProfileSummary()
			return printer(c).Result(s, func(w io.Writer) { _, _ = io.WriteString(w, s.Text()) })
		},
	}
}
