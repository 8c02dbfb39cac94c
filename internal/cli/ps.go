package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/urfave/cli/v2"
)

func psCommand() *cli.Command {
	return &cli.Command{
		Name:  "ps",
		Usage: "list the project's containers: state, health, ports, GPUs, image",
		Action: func(c *cli.Context) error {
			p, err := openProject(c)
			if err != nil {
				return err
			}
			defer p.Close()
			st, err := p.Ps(c.Context)
			if err != nil {
				return err
			}
			return printer(c).Result(st, func(w io.Writer) { printPs(w, st) })
		},
	}
}

func printPs(w io.Writer, st []reconcile.Status) {
	if len(st) == 0 {
		fmt.Fprintln(w, "no containers: run devenv up")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVICE\tSTATE\tHEALTH\tPORTS\tGPUS\tIMAGE")
	for _, s := range st {
		var ports []string
		for _, p := range s.Ports {
			ports = append(ports, fmt.Sprintf("%s:%d->%d/%s", p.HostIP, p.HostPort, p.ContainerPort, p.Protocol))
		}
		state := s.State
		if s.ExitCode != 0 {
			state = fmt.Sprintf("%s (%d)", s.State, s.ExitCode)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Service, state, dash(s.Health), dash(strings.Join(ports, ",")), dash(s.GPUs), s.Image)
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
