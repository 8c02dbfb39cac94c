package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/sparkconf"
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

// sparkExplain is devenv config spark's result.
type sparkExplain struct {
	Service     string            `json:"service"`
	CPUFallback bool              `json:"cpu_fallback"`
	Reason      string            `json:"reason,omitempty"`
	Conf        []sparkconf.Entry `json:"conf"`
	Notes       []string          `json:"notes,omitempty"`
}

func runConfigSpark(c *cli.Context) error {
	if c.NArg() > 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv config spark [SERVICE] [--explain]")
	}
	p, err := loadProject(c)
	if err != nil {
		return err
	}
	service, err := serviceOrSpark(p, c.Args().First())
	if err != nil {
		return err
	}
	if !isSpark(p, p.Service(service)) {
		return exitcode.Newf(exitcode.Usage, "service %s has profile %s: only spark-rapids services have a Spark conf", service, p.Service(service).Profile)
	}
	lf, err := planLock(c, p)
	if err != nil {
		return err
	}
	h := offlineHost(c)
	h.NoGPURuntime = noGPURuntime(engine.Info{})
	pl, err := plan.Make(p, lf, h, plan.Options{Mirrors: mirrorsOf(p), StateDir: filepath.Join(p.Dir, ".devenv")})
	if err != nil {
		return err
	}
	ps := pl.Service(service)
	if ps == nil || ps.Spark == nil {
		return fmt.Errorf("the plan has no Spark conf for %s", service)
	}
	rep := sparkExplain{Service: service, CPUFallback: ps.CPUFallback, Reason: ps.Reason, Conf: ps.Spark.Conf, Notes: ps.Spark.Notes}
	explain := c.Bool("explain")
	return printer(c).Result(rep, func(w io.Writer) {
		if explain {
			printExplain(w, rep)
		} else {
			printSparkDefaults(w, rep)
		}
	})
}

// planLock reads devenv.lock, which the plan is made from; a stale one is
// used with a warning, since explaining needs no exact pin.
func planLock(c *cli.Context, p *spec.Project) (*lock.File, error) {
	lf, err := readLock(p)
	if err != nil {
		return nil, err
	}
	if lf == nil {
		return nil, exitcode.Newf(exitcode.Usage, "no %s next to %s: run devenv lock first", lock.FileName, filepath.Base(p.File))
	}
	if why := lock.Check(p, lf); why != nil {
		printer(c).Warn("%s is stale (%v): showing what it pins; run devenv lock to update it", lock.FileName, why)
	}
	return lf, nil
}

func printSparkDefaults(w io.Writer, r sparkExplain) {
	for _, e := range r.Conf {
		if !e.Unset {
			fmt.Fprintf(w, "%s %s\n", e.Key, e.Value)
		}
	}
}

func printExplain(w io.Writer, r sparkExplain) {
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
}
