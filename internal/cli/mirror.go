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
			maxWindowFlag,
		},
		Action: runMirror,
	}
}

func runMirror(c *cli.Context) error {
	if c.NArg() != 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv mirror SOURCE [--service S] [--print]")
	}
	o := app.MirrorOptions{Source: c.Args().First(), Service: c.String("service"), Format: c.String("format"), Full: c.Bool("full"), MaxWindowMB: c.Int("max-window")}
	out := printer(c)
	if c.Bool("print") {
		o.Full = true // an event log is read whole, for what failed in prod (GB/s)
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

// maxWindowFlag lets event logs use zstd windows over the default, as
// `zstd --long=31` or `--memory` do; lock and up read DEVENV_MAX_WINDOW_MB.
var maxWindowFlag = &cli.IntFlag{Name: "max-window", Value: mirror.DefaultMaxWindowMB, EnvVars: []string{"DEVENV_MAX_WINDOW_MB"},
	Usage: "largest zstd window in `MiB` an event log may need (the zstd command line's default; more costs that much memory, as zstd --memory)"}

func printProfile(w io.Writer, p *mirror.Profile) {
	fmt.Fprintf(w, "source:   %s (%s, %s)\n", p.Source.Path, p.Source.Format, p.Source.Platform)
	fmt.Fprintf(w, "runtime:  spark %s, scala %s, java %s, python %s", p.Runtime.Spark, p.Runtime.ScalaFull, p.Runtime.Java, p.Runtime.Python)
	if p.Runtime.Label != "" {
		fmt.Fprintf(w, " (%s)", p.Runtime.Label)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "gpus:     %s\n", p.GPUSummary())
	if p.GPU.Rapids != "" {
		fmt.Fprintf(w, "rapids:   RAPIDS Accelerator %s, %s GPU(s) per executor, task share %s\n", p.GPU.Rapids, orUnknownF(p.GPU.ExecutorGPUs), orUnknownF(p.GPU.TaskGPU))
	}
	fmt.Fprintf(w, "topology: %s workers%s, %s cores and %s MiB per executor\n", orUnknown(int64(p.Topology.Workers)), workerHardware(p),
		orUnknown(int64(p.Topology.ExecutorCores)), orUnknown(p.Topology.ExecutorMemoryMB))
	printPortability(w, p)
	printFailures(w, p.Failures)
	for _, wn := range p.Warnings {
		fmt.Fprintf(w, "warning:  %s\n", wn)
	}
}

// printFailures lists what went wrong in prod, by kind, with the
// signature logs --diagnose would name.
func printFailures(w io.Writer, fs []mirror.Failure) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(w, "failures in prod:\n")
	for _, f := range fs {
		sig := "unclassified"
		if f.Signature != "" {
			sig = f.Signature
		}
		fmt.Fprintf(w, "  %-13s %-22s %4dx  first %s: %s\n", f.Kind, "["+sig+"]", f.Count, f.First, f.Reason)
	}
}

// orUnknown shows a fact prod did not give as unknown, never as zero.
func orUnknown(n int64) string {
	if n == 0 {
		return mirror.Unknown
	}
	return fmt.Sprint(n)
}

func orUnknownF(f float64) string {
	if f == 0 {
		return mirror.Unknown
	}
	return fmt.Sprint(f)
}

func workerHardware(p *mirror.Profile) string {
	t := p.Topology
	if t.WorkerType == "" {
		return ""
	}
	if t.WorkerVCPUs == 0 {
		return fmt.Sprintf(" (%s: vCPUs and memory unknown)", t.WorkerType)
	}
	return fmt.Sprintf(" (%s: %d vCPUs, %d GiB)", t.WorkerType, t.WorkerVCPUs, t.WorkerMemoryMB/1024)
}

// printPortability summarises what of prod's confs reaches the local
// Spark, by the rule spark-defaults is written with.
func printPortability(w io.Writer, p *mirror.Profile) {
	pt := p.Portable()
	fmt.Fprintf(w, "confs:    %d kept, %d scaled to this machine, %d sized by devenv for this machine instead, %d dropped, %d redacted\n",
		len(pt.Kept), len(pt.Scaled), len(pt.SizedHere), len(pt.Dropped), len(pt.Redacted))
	groups := pt.DropReasons()
	reasons := make([]string, 0, len(groups))
	for r := range groups {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if len(groups[reasons[i]]) != len(groups[reasons[j]]) {
			return len(groups[reasons[i]]) > len(groups[reasons[j]])
		}
		return reasons[i] < reasons[j]
	})
	for _, r := range reasons {
		keys := groups[r]
		more := ""
		if len(keys) > 2 {
			keys, more = keys[:2], fmt.Sprintf(", ... (%d more)", len(groups[r])-2)
		}
		fmt.Fprintf(w, "  dropped %d, %s: %s%s\n", len(groups[r]), r, strings.Join(keys, ", "), more)
	}
	for _, k := range pt.Redacted {
		fmt.Fprintf(w, "  redacted (never copied): %s\n", k)
	}
}

func printMirrored(w io.Writer, r *app.MirrorResult) {
	printProfile(w, r.Profile)
	if l := r.Locked; l != nil {
		fmt.Fprintf(w, "\n%s now mirrors %s and is locked to spark %s, scala %s, java %s, rapids %s\n",
			r.Service, r.Source, l.Versions.Spark, l.Versions.ScalaFull, l.Versions.Java, l.Versions.Rapids)
	}
}
