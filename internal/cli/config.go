package cli

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

// config, config spark and lock: what devenv resolves and pins.

func configCommand() *cli.Command {
	return &cli.Command{
		Name:      "config",
		Usage:     "show the fully resolved configuration",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "services", Usage: "print the names of the services up runs (devenv.yaml's and the enabled compose profiles'), one a line, as docker compose config --services"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "only check the configuration: print nothing, exit 0 when it is valid"},
		},
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			if c.Bool("services") {
				names, err := p.EnabledServices(c.Context)
				return show(c, names, err, func(w io.Writer, names []string) {
					for _, n := range names {
						fmt.Fprintln(w, n)
					}
				})
			}
			cfg, err := p.Config(c.Context, args(c))
			if c.Bool("quiet") {
				return err
			}
			return show(c, cfg, err, view.Config)
		}),
		Subcommands: []*cli.Command{{
			Name:      "spark",
			Usage:     "show a spark-rapids service's generated spark-defaults; --explain says where each value came from",
			ArgsUsage: "[service]   (default: the first spark-rapids service)",
			Flags: []cli.Flag{
				&cli.BoolFlag{Name: "explain", Usage: "show every key's source (profile, hardware, mirror, user) and the rule or file behind it"},
			},
			Action: checked(argsAtMost(1), "usage: devenv config spark [SERVICE] [--explain]", projectAction(func(c *cli.Context, p *app.Project) error {
				rep, err := p.Explain(c.Context, c.Args().First())
				if c.Bool("explain") {
					return show(c, rep, err, view.Explain)
				}
				return show(c, rep, err, view.SparkDefaults)
			})),
		}},
	}
}

func lockCommand() *cli.Command {
	return &cli.Command{
		Name:      "lock",
		Usage:     "resolve devenv.yaml into devenv.lock (versions, base digests, artifact checksums)",
		ArgsUsage: "[service...]  (with --upgrade: only these services)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "exit 5 if devenv.lock is missing or stale; change nothing, use no network"},
			&cli.BoolFlag{Name: "upgrade", Usage: "move to the newest compatible versions and digests"},
		},
		Action: projectAction(func(c *cli.Context, p *app.Project) error {
			res, err := p.Lock(c.Context, app.LockOptions{Check: c.Bool("check"), Upgrade: c.Bool("upgrade"), Services: args(c)})
			if err == nil && c.Bool("upgrade") {
				// name what the publishers have that the catalog does not know yet
				res.Notes = append(res.Notes, p.UpstreamNotes(c.Context)...)
			}
			if err == nil {
				warn(c, res.Notes...)
			}
			return show(c, res, err, view.Lock)
		}),
	}
}
