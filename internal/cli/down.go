package cli

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/envs/reconcile"
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
			s, err := openSession(c, false, false)
			if err != nil {
				return err
			}
			defer s.close()
			release, err := reconcile.Lock(s.stateDir(), func() { s.out.Say("another devenv is changing this project; waiting for it") })
			if err != nil {
				return err
			}
			defer release()
			ch, err := s.runner().Down(c.Context, s.proj.Name, reconcile.DownOptions{Volumes: c.Bool("volumes"), Images: c.Bool("rmi")})
			if err != nil {
				return err
			}
			return s.out.Result(map[string]any{"project": s.proj.Name, "changes": ch}, func(w io.Writer) {
				fmt.Fprintf(w, "%s is down: %d objects removed\n", s.proj.Name, len(ch))
			})
		},
	}
}

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:      "build",
		Usage:     "build the images whose inputs changed",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "frozen", Usage: "refuse a missing or stale devenv.lock (exit 5)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "rebuild without the build cache"},
			&cli.BoolFlag{Name: "pull", Usage: "pull base images again"},
		},
		Action: func(c *cli.Context) error {
			s, err := openSession(c, true, c.Bool("frozen"))
			if err != nil {
				return err
			}
			defer s.close()
			if err := checkServices(s.proj, args(c)); err != nil {
				return err
			}
			pl, err := s.plan()
			if err != nil {
				return err
			}
			svcs := pl.Services
			if len(args(c)) > 0 {
				svcs = nil
				for _, n := range args(c) {
					svcs = append(svcs, pl.Service(n))
				}
			}
			ch, err := s.runner().Images(c.Context, svcs, reconcile.BuildOptions{NoCache: c.Bool("no-cache"), Pull: c.Bool("pull")})
			if err != nil {
				return err
			}
			return s.out.Result(map[string]any{"project": s.proj.Name, "changes": ch}, func(w io.Writer) {
				if len(ch) == 0 {
					fmt.Fprintln(w, "all images are up to date")
				}
				for _, x := range ch {
					fmt.Fprintf(w, "%s: %s %s\n", x.Service, x.Action, x.Detail)
				}
			})
		},
	}
}
