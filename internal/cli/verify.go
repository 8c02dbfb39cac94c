package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/sparkconf"
	"github.com/urfave/cli/v2"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name: "verify",
		Usage: "run a small query with and without the RAPIDS Accelerator in a running Spark service: " +
			"what ran on the GPU, what fell back and why, and the speedup; exits 1 when nothing ran on the GPU",
		ArgsUsage: "[service]   (default: the first spark-rapids service)",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "rows", Value: 1_000_000, Usage: "rows the query generates"},
		},
		Action: runVerify,
	}
}

func runVerify(c *cli.Context) error {
	if c.NArg() > 1 || c.Int("rows") < 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv verify [SERVICE] [--rows N] with N >= 1")
	}
	p, err := openProject(c)
	if err != nil {
		return err
	}
	defer p.Close()
	out := printer(c)
	o := app.VerifyOptions{Service: c.Args().First(), Rows: c.Int("rows")}
	if out.Verbose {
		o.Echo = c.App.ErrWriter
	}
	rep, err := p.Verify(c.Context, o)
	if err != nil {
		return err
	}
	if err := out.Result(rep, func(w io.Writer) { printVerify(w, rep) }); err != nil {
		return err
	}
	if !rep.OnGPU {
		return exitcode.Newf(exitcode.Failure, "no operator ran on the GPU in %s: %s", rep.Service, rep.Hint)
	}
	return nil
}

func printVerify(w io.Writer, r *app.VerifyReport) {
	fmt.Fprintf(w, "verify on %s: %d rows, %d groups\n", r.Service, r.GPU.Rows, r.GPU.Groups)
	printRun(w, "GPU run (spark.rapids.sql.enabled=true)", r.GPU)
	printRun(w, "CPU run (spark.rapids.sql.enabled=false)", r.CPU)
	if r.Speedup > 0 {
		fmt.Fprintf(w, "speedup: %.2fx (CPU run time / GPU run time)\n", r.Speedup)
	}
	if r.OnGPU {
		fmt.Fprintln(w, "result: the RAPIDS Accelerator ran operators on the GPU")
	} else {
		fmt.Fprintln(w, "result: no operator ran on the GPU")
	}
}

func printRun(w io.Writer, title string, run sparkconf.VerifyRun) {
	fmt.Fprintf(w, "\n%s: %.2fs\n", title, run.WallSeconds)
	rep := run.Report
	if rep.Adaptive && !rep.Final {
		fmt.Fprintln(w, "  note: the plan was read before adaptive execution finished; operators are the planned ones")
	}
	fmt.Fprintf(w, "  on the GPU: %s\n", operators(rep.GPU))
	fmt.Fprintf(w, "  on the CPU: %s\n", operators(rep.CPU))
	if len(rep.Fallbacks) > 0 {
		fmt.Fprintln(w, "  kept on the CPU by the plugin:")
	}
	for _, f := range rep.Fallbacks {
		name := f.Operator
		if f.Kind != "" {
			name = f.Kind + " " + name
		}
		fmt.Fprintf(w, "  %s- %s: %s\n", strings.Repeat("  ", f.Depth), name, strings.Join(f.Reasons, "; "))
	}
}

func operators(ops []sparkconf.Operator) string {
	if len(ops) == 0 {
		return "none"
	}
	parts := make([]string, len(ops))
	for i, op := range ops {
		parts[i] = op.Name
		if op.Count > 1 {
			parts[i] += fmt.Sprintf(" x%d", op.Count)
		}
	}
	return strings.Join(parts, ", ")
}
