package cli

import (
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

// exportCommand is `devenv export compose|devcontainer|k8s`: the planned
// environment in other tools' formats, made without a Docker engine.
func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write the environment as a compose file, a devcontainer.json or Kubernetes manifests",
		Subcommands: []*cli.Command{
			{
				Name:   "compose",
				Usage:  "the whole environment as a compose file (stdout, or -o FILE and the line that runs it)",
				Flags:  []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout (suggested: " + app.ExportComposeFile + ")"}},
				Action: exportAction(app.ExportCompose),
			},
			{
				Name:  "devcontainer",
				Usage: "write " + app.ExportDevcontainerPath + " for VS Code and other editors",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "service", Usage: "the `SERVICE` the editor attaches to (default: one that mounts the project: a rapids or spark-rapids service, then devenv's others, then a compose service binding the project directory)"},
					&cli.BoolFlag{Name: "force", Usage: "overwrite an existing devcontainer.json"},
				},
				Action: exportAction(app.ExportDevcontainer),
			},
			{
				Name:   "k8s",
				Usage:  "Spark Operator SparkApplications and Triton Deployments in -o DIR",
				Flags:  []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "k8s", Usage: "write the manifests into `DIR`"}},
				Action: exportAction(app.ExportK8s),
			},
		},
	}
}

func exportAction(format string) cli.ActionFunc {
	return projectAction(func(c *cli.Context, p *app.Project) error {
		res, err := p.Export(c.Context, app.ExportOptions{Format: format, Output: c.String("output"), Service: c.String("service"), Force: c.Bool("force")})
		if err != nil {
			return err
		}
		warn(c, view.ExportWarnings(res)...)
		if res.Data != nil {
			_, err := c.App.Writer.Write(res.Data)
			return err
		}
		say(c, view.Exported(res)...)
		return printer(c).Result(res, nil)
	})
}
