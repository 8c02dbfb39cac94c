package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/sparkconf"
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

type diffResult struct {
	Service string         `json:"service"`
	Source  string         `json:"source"`
	Drifted bool           `json:"drifted"`
	Items   []mirror.Drift `json:"items"`
}

func runDiff(c *cli.Context) error {
	p, err := loadProject(c)
	if err != nil {
		return err
	}
	svc, err := mirrorTarget(p, c.String("service"))
	if err != nil {
		return err
	}
	src := c.Args().First()
	if src == "" {
		if svc.Mirror == "" {
			return exitcode.Newf(exitcode.Usage, "service %s mirrors nothing: name a SOURCE, or run devenv mirror SOURCE first", svc.Name)
		}
		src = svc.Mirror
	}
	prod, err := mirror.Import(src, mirror.Options{Format: c.String("format")})
	if err != nil {
		return err
	}
	lf, err := readLock(p)
	if err != nil {
		return err
	}
	if lf == nil || lf.Service(svc.Name) == nil {
		return &lock.StaleError{Reasons: []string{"service " + svc.Name + " is not locked"}}
	}
	host := offlineHost(c)
	pl, err := plan.Make(p, lf, host, plan.Options{Mirrors: mirrorsOf(p), StateDir: filepath.Join(p.Dir, ".devenv")})
	if err != nil {
		return err
	}
	ps := pl.Service(svc.Name)
	v := lf.Service(svc.Name).Versions
	local := mirror.LocalEnv{Spark: v.Spark, Scala: v.Scala, Java: v.Java, Rapids: v.Rapids, CUDA: v.CUDA, Conf: sparkMap(ps)}
	rep := mirror.Diff(local, prod, mirrorHostOf(ps, host))
	rep.Items = ownTuning(rep.Items, ps)
	res := diffResult{Service: svc.Name, Source: src, Drifted: rep.Drifted(), Items: rep.Items}
	if res.Items == nil {
		res.Items = []mirror.Drift{}
	}
	if err := printer(c).Result(res, func(w io.Writer) { printDiff(w, res) }); err != nil {
		return err
	}
	if res.Drifted {
		return exitcode.With(exitcode.Drift, errSilent)
	}
	return nil
}

// ownTuning marks confs that only devenv's own defaults and hardware tuning
// set (the plugin, Kryo, memory and partition sizing for this machine) as
// performance differences: they are the point of the local environment,
// not drift. What the user's conf: or the mirrored prod conf set keeps the
// severity the comparison gave it.
func ownTuning(items []mirror.Drift, ps *plan.Service) []mirror.Drift {
	if ps == nil || ps.Spark == nil {
		return items
	}
	source := map[string]string{}
	for _, e := range ps.Spark.Conf {
		source[e.Key] = e.Source
	}
	for i, d := range items {
		src := source[d.Key]
		if d.Kind == "conf" && d.Change == "extra" && (src == sparkconf.SourceProfile || src == sparkconf.SourceHardware) {
			items[i].Severity = mirror.SevPerformance
			items[i].Why = "devenv's " + src + " setting for this machine; prod does not set it"
		}
	}
	return items
}

func sparkMap(ps *plan.Service) map[string]string {
	out := map[string]string{}
	if ps == nil || ps.Spark == nil {
		return out
	}
	for _, e := range ps.Spark.Conf {
		if !e.Unset {
			out[e.Key] = e.Value
		}
	}
	return out
}

// mirrorHostOf is the service's share of the machine for the scaler.
func mirrorHostOf(ps *plan.Service, h plan.Host) mirror.Host {
	hw := sparkconf.Hardware{CPUs: h.CPUs, MemoryBytes: h.MemoryBytes * 3 / 4}
	if ps != nil && ps.WantsGPU && !ps.CPUFallback {
		hw.GPUs = 1
		if h.GPUs != nil && len(h.GPUs.GPUs) > 0 {
			hw.GPUMemoryBytes = int64(h.GPUs.GPUs[0].MemoryTotal)
		}
	}
	return plan.MirrorHost(hw)
}

func printDiff(w io.Writer, r diffResult) {
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
