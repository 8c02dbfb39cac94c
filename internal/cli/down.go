package cli

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/app"
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
			res, err := p.Down(c.Context, app.DownOptions{Services: args(c), Volumes: c.Bool("volumes"), Images: c.Bool("rmi"), DryRun: c.Bool("dry-run"), LockTimeout: c.Duration("wait-timeout")})
			if err != nil {
				return err
			}
			return printer(c).Result(res, func(w io.Writer) {
				if res.DryRun {
					printChanges(w, res)
					return
				}
				what := res.Project + " is down"
				if len(args(c)) > 0 {
					what = fmt.Sprintf("%s: %v removed", res.Project, args(c))
				}
				fmt.Fprintf(w, "%s: %d objects removed\n", what, len(res.Changes))
			})
		},
	}
}

// printChanges lists changes one a line; for a dry run, as what would be done.
func printChanges(w io.Writer, r *app.Result) {
	if r.DryRun {
		fmt.Fprintf(w, "dry run: %s would change as follows (nothing was changed)\n", r.Project)
	}
	if len(r.Changes) == 0 {
		fmt.Fprintln(w, "  nothing to do")
	}
	for _, ch := range r.Changes {
		who := ch.Service
		if who == "" {
			who = r.Project
		}
		verb := ch.Action
		if r.DryRun {
			verb = "would be " + ch.Action
		}
		if ch.Action == "unchanged" {
			verb = "unchanged"
		}
		fmt.Fprintf(w, "  %-12s %s %s\n", who, verb, ch.Detail)
	}
}
