package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/urfave/cli/v2"
)

func mirrorCommand() *cli.Command {
	return &cli.Command{
		Name:      "mirror",
		Usage:     "make a service use production's versions and confs (cluster JSON/YAML, spark-defaults, spark-submit, event log)",
		ArgsUsage: "SOURCE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "service", Aliases: []string{"s"}, Usage: "the service to mirror into (default: the first spark-rapids service)"},
			&cli.StringFlag{Name: "format", Usage: "force the format: " + strings.Join(mirror.Formats, ", ")},
			&cli.BoolFlag{Name: "full", Usage: "scan a whole event log (executor and GPU facts across the run)"},
			&cli.BoolFlag{Name: "print", Usage: "only print the normalized cluster profile; change nothing"},
		},
		Action: runMirror,
	}
}

func runMirror(c *cli.Context) error {
	if c.NArg() != 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv mirror SOURCE [--service S] [--print]")
	}
	o := app.MirrorOptions{Source: c.Args().First(), Service: c.String("service"), Format: c.String("format"), Full: c.Bool("full")}
	out := printer(c)
	if c.Bool("print") {
		prof, err := app.Import(o.Source, o)
		if err != nil {
			return err
		}
		return out.Result(prof, func(w io.Writer) { printProfile(w, prof) })
	}
	p, err := openProject(c)
	if err != nil {
		return err
	}
	res, err := p.Mirror(c.Context, o)
	if err != nil {
		return err
	}
	for _, n := range res.Notes {
		out.Say("%s", n)
	}
	return out.Result(res, func(w io.Writer) { printMirrored(w, res) })
}

func printProfile(w io.Writer, p *mirror.Profile) {
	fmt.Fprintf(w, "source:   %s (%s, %s)\n", p.Source.Path, p.Source.Format, p.Source.Platform)
	fmt.Fprintf(w, "runtime:  spark %s, scala %s, java %s, python %s", p.Runtime.Spark, p.Runtime.ScalaFull, p.Runtime.Java, p.Runtime.Python)
	if p.Runtime.Label != "" {
		fmt.Fprintf(w, " (%s)", p.Runtime.Label)
	}
	fmt.Fprintln(w)
	if p.GPU.Rapids != "" {
		fmt.Fprintf(w, "gpu:      RAPIDS Accelerator %s, %v GPU(s) per executor, task share %v\n", p.GPU.Rapids, p.GPU.ExecutorGPUs, p.GPU.TaskGPU)
	}
	fmt.Fprintf(w, "topology: %d workers, %d cores and %d MiB per executor\n", p.Topology.Workers, p.Topology.ExecutorCores, p.Topology.ExecutorMemoryMB)
	fmt.Fprintf(w, "confs:    %d kept or scaled, %d dropped, %d redacted\n", len(p.Conf), len(p.Dropped), len(p.Redacted))
	for _, k := range p.Redacted {
		fmt.Fprintf(w, "  redacted (never copied): %s\n", k)
	}
	for _, wn := range p.Warnings {
		fmt.Fprintf(w, "warning:  %s\n", wn)
	}
}

func printMirrored(w io.Writer, r *app.MirrorResult) {
	printProfile(w, r.Profile)
	if l := r.Locked; l != nil {
		fmt.Fprintf(w, "\n%s now mirrors %s and is locked to spark %s, scala %s, java %s, rapids %s\n",
			r.Service, r.Source, l.Versions.Spark, l.Versions.ScalaFull, l.Versions.Java, l.Versions.Rapids)
	}
	keys := make([]string, 0, len(r.Profile.Dropped))
	for k := range r.Profile.Dropped {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  dropped %s: %s\n", k, r.Profile.Dropped[k])
	}
}
