package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/urfave/cli/v2"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "report drift between the locked local environment and production (exit 5 on behaviour drift)",
		ArgsUsage: "[SOURCE]  (default: the service's mirror: file)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "service", Aliases: []string{"s"}, Usage: "the local service to compare (default: the one that mirrors, else the first spark-rapids service)"},
			&cli.StringFlag{Name: "format", Usage: "force the source's format"},
		},
		Action: runDiff,
	}
}

func runDiff(c *cli.Context) error {
	p, err := openProject(c)
	if err != nil {
		return err
	}
	res, err := p.Diff(c.Context, app.DiffOptions{Service: c.String("service"), Source: c.Args().First(), Format: c.String("format")})
	if err != nil {
		return err
	}
	if err := printer(c).Result(res, func(w io.Writer) { printDiff(w, res) }); err != nil {
		return err
	}
	if res.Drifted {
		return exitcode.With(exitcode.Drift, errSilent)
	}
	return nil
}

func printDiff(w io.Writer, r *app.DiffResult) {
	if len(r.Items) == 0 {
		fmt.Fprintf(w, "%s matches %s\n", r.Service, r.Source)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SEVERITY\tKIND\tKEY\tCHANGE\tPROD\tLOCAL\tWHY")
	for _, d := range r.Items {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d.Severity, d.Kind, d.Key, d.Change, dash(d.Prod), dash(d.Local), d.Why)
	}
	tw.Flush()
	if r.Drifted {
		fmt.Fprintf(w, "\n%s differs from %s in ways that change behaviour\n", r.Service, r.Source)
	}
}
