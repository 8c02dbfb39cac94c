package view

import (
	"fmt"
	"io"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/sparkconf"
)

// Verify is `devenv verify`: what ran on the GPU and CPU in each run, and
// the speedup.
func Verify(w io.Writer, r *app.VerifyReport) {
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
