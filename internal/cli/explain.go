package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/urfave/cli/v2"
)

// configSparkCommand is `devenv config spark`, a subcommand of config.
func configSparkCommand() *cli.Command {
	return &cli.Command{
		Name:      "spark",
		Usage:     "show a spark-rapids service's generated spark-defaults; --explain says where each value came from",
		ArgsUsage: "[service]   (default: the first spark-rapids service)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "explain", Usage: "show every key's source (profile, hardware, mirror, user) and the rule or file behind it"},
		},
		Action: runConfigSpark,
	}
}

func runConfigSpark(c *cli.Context) error {
	if c.NArg() > 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv config spark [SERVICE] [--explain]")
	}
	p, err := openProject(c)
	if err != nil {
		return err
	}
	rep, err := p.Explain(c.Context, c.Args().First())
	if err != nil {
		return err
	}
	explain := c.Bool("explain")
	return printer(c).Result(rep, func(w io.Writer) {
		if explain {
			printExplain(w, rep)
		} else {
			printSparkDefaults(w, rep)
		}
	})
}

func printSparkDefaults(w io.Writer, r *app.SparkExplain) {
	for _, e := range r.Conf {
		if !e.Unset {
			fmt.Fprintf(w, "%s %s\n", e.Key, e.Value)
		}
	}
}

func printExplain(w io.Writer, r *app.SparkExplain) {
	fmt.Fprintf(w, "spark-defaults of %s", r.Service)
	if r.CPUFallback {
		fmt.Fprintf(w, " (CPU mode: %s)", r.Reason)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tSOURCE\tRULE")
	for _, e := range r.Conf {
		value := e.Value
		if e.Unset {
			value = "(not set)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Key, value, e.Source, strings.ReplaceAll(e.Rule, "\n", " "))
	}
	tw.Flush()
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if len(r.Unpinned) > 0 {
		fmt.Fprintln(w, "not locked yet: explained from resolution alone; devenv lock would still pin:")
	}
	for _, u := range r.Unpinned {
		fmt.Fprintf(w, "  %s\n", u)
	}
}
