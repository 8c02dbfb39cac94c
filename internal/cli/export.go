package cli

import (
	"github.com/devenv-dev/devenv/compose/export"
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/urfave/cli/v2"
)

// exportCommand is `devenv export compose|devcontainer|k8s`: the planned
// environment in other tools' formats, made without a Docker engine.
func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write the environment as a compose file, a devcontainer.json or Kubernetes manifests",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowSubcommandHelp(c)
			}
			return exitcode.Newf(exitcode.Usage, "%q is not an export format: write devenv export compose, devcontainer or k8s", c.Args().First())
		},
		Subcommands: []*cli.Command{
			{
				Name:   "compose",
				Usage:  "the whole environment as a compose file (stdout, or -o FILE)",
				Flags:  []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout (suggested: " + export.ComposeFileName + ")"}},
				Action: exportAction(app.ExportCompose),
			},
			{
				Name:  "devcontainer",
				Usage: "write " + export.DevcontainerPath + " for VS Code and other editors",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "service", Usage: "the `SERVICE` the editor attaches to (default: the first rapids or spark-rapids service)"},
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
	return func(c *cli.Context) error {
		p, err := openProject(c)
		if err != nil {
			return err
		}
		res, err := p.Export(c.Context, app.ExportOptions{Format: format, Output: c.String("output"), Service: c.String("service"), Force: c.Bool("force")})
		if err != nil {
			return err
		}
		out := printer(c)
		if !res.Pinned {
			out.Warn("no devenv.lock: exporting images by tag, not digest; run devenv lock to pin them")
		}
		if res.Stale != "" {
			out.Warn("devenv.lock is stale (%s): exporting what it pins; run devenv lock to refresh it", res.Stale)
		}
		if res.Data != nil {
			_, err := c.App.Writer.Write(res.Data)
			return err
		}
		for _, f := range res.Written {
			switch {
			case format == app.ExportCompose:
				out.Say("wrote %s; run it with: docker compose -p %s -f %s up -d", f, res.Project, f)
			case f == res.Started:
				out.Say("wrote %s (the devcontainer starts it)", f)
			default:
				out.Say("wrote %s", f)
			}
		}
		if res.Note != "" {
			out.Say("%s", res.Note)
		}
		return out.Result(res, nil)
	}
}
