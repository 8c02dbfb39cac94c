package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/labels"
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

// verifyReport is devenv verify's result.
type verifyReport struct {
	Service string `json:"service"`
	OnGPU   bool   `json:"on_gpu"`
	sparkconf.VerifyResult
}

// verifyScriptPath is where verify.py lands inside the containers.
var verifyScriptPath = plan.Workspace + "/.devenv/verify.py"

func runVerify(c *cli.Context) error {
	if c.NArg() > 1 || c.Int("rows") < 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv verify [SERVICE] [--rows N] with N >= 1")
	}
	s, err := openSession(c, false, false)
	if err != nil {
		return err
	}
	defer s.close()
	service, err := serviceOrSpark(s.proj, c.Args().First())
	if err != nil {
		return err
	}
	if err := writeVerifyScript(s.stateDir()); err != nil {
		return err
	}
	s.out.Say("verify: running a %d-row query on %s with the RAPIDS Accelerator and without it...", c.Int("rows"), service)
	stdout, err := runVerifyScript(c, s, service)
	if err != nil {
		return err
	}
	res, err := sparkconf.ParseVerifyOutput(stdout)
	if err != nil {
		return fmt.Errorf("devenv verify in %s: %w", service, err)
	}
	rep := verifyReport{Service: service, OnGPU: res.OnGPU(), VerifyResult: res}
	if err := s.out.Result(rep, func(w io.Writer) { printVerify(w, rep) }); err != nil {
		return err
	}
	if !rep.OnGPU {
		return exitcode.Newf(exitcode.Failure, "no operator ran on the GPU in %s%s", service, cpuHint(c, s, service))
	}
	return nil
}

func writeVerifyScript(stateDir string) error {
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(stateDir, "verify.py"), sparkconf.VerifyScript(), 0o644)
}

// runVerifyScript runs spark-submit of verify.py in the service and returns
// its stdout; with --verbose the output is shown as it comes.
func runVerifyScript(c *cli.Context, s *session, service string) (string, error) {
	var stdout, stderr bytes.Buffer
	var outW, errW io.Writer = &stdout, &stderr
	if s.out.Verbose {
		outW, errW = io.MultiWriter(&stdout, c.App.ErrWriter), io.MultiWriter(&stderr, c.App.ErrWriter)
	}
	cmd := []string{"spark-submit", verifyScriptPath, strconv.Itoa(c.Int("rows"))}
	code, err := s.eng.Exec(c.Context, plan.ContainerName(s.proj.Name, service), engine.ExecOptions{Cmd: cmd, Stdout: outW, Stderr: errW})
	if isNotFoundErr(err) {
		return "", exitcode.Newf(exitcode.Failure, "service %s is not running: run devenv up %s", service, service)
	}
	if err != nil {
		return "", err
	}
	if code != 0 {
		return "", exitcode.Newf(exitcode.Failure, "`%s` exited %d in %s; its last lines:\n%s\nrun devenv verify --verbose to see all of it",
			strings.Join(cmd, " "), code, service, lastLines(stderr.String()+stdout.String(), 10))
	}
	return stdout.String(), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "  " + strings.Join(lines, "\n  ")
}

// cpuHint says why nothing may have run on the GPU when the container tells.
func cpuHint(c *cli.Context, s *session, service string) string {
	st, err := s.eng.Inspect(c.Context, plan.ContainerName(s.proj.Name, service))
	if err == nil && st.Labels[labels.CPUFallback] == "true" {
		return ": the service runs in CPU mode (no GPU could be had at devenv up; see devenv ps and devenv doctor)"
	}
	return ": see the fallback reasons above, and devenv doctor"
}

func printVerify(w io.Writer, r verifyReport) {
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
