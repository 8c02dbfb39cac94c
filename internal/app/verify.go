package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/sparkconf"
	"github.com/devenv-dev/devenv/internal/statedir"
)

// VerifyScriptPath is where verify.py lands inside the containers.
var VerifyScriptPath = plan.Workspace + "/.devenv/verify.py"

// VerifyOptions steer Verify.
type VerifyOptions struct {
	Service string    // default: the first spark-rapids service
	Rows    int       // rows the query generates
	Echo    io.Writer // when set, spark-submit's output is copied here as it comes (--verbose)
}

// VerifyReport is what ran on the GPU, what fell back and why.
type VerifyReport struct {
	Service string `json:"service"`
	OnGPU   bool   `json:"on_gpu"`
	sparkconf.VerifyResult
	// Hint says why nothing may have run on the GPU, when nothing did.
	Hint string `json:"hint,omitempty"`
}

// Verify runs a small PySpark query with the RAPIDS Accelerator on and off
// in the running service.
func (p *Project) Verify(ctx context.Context, o VerifyOptions) (*VerifyReport, error) {
	service, err := p.SparkService(o.Service)
	if err != nil {
		return nil, err
	}
	eng, err := p.Engine(ctx)
	if err != nil {
		return nil, err
	}
	if err := writeVerifyScript(p.StateDir()); err != nil {
		return nil, err
	}
	p.out.Say("verify: running a %d-row query on %s with the RAPIDS Accelerator and without it...", o.Rows, service)
	container := plan.ContainerName(p.Spec.Name, service)
	stdout, err := runVerifyScript(ctx, eng, container, service, o)
	if err != nil {
		return nil, err
	}
	res, err := sparkconf.ParseVerifyOutput(stdout)
	if err != nil {
		return nil, fmt.Errorf("devenv verify in %s: %w", service, err)
	}
	rep := &VerifyReport{Service: service, OnGPU: res.OnGPU(), VerifyResult: res}
	if !rep.OnGPU {
		rep.Hint = cpuHint(ctx, eng, container)
	}
	return rep, nil
}

func writeVerifyScript(stateDir string) error {
	return statedir.WriteFile(stateDir, filepath.Join(stateDir, "verify.py"), sparkconf.VerifyScript(), 0o644)
}

// runVerifyScript runs spark-submit of verify.py in the service and returns
// its stdout.
func runVerifyScript(ctx context.Context, eng engine.Engine, container, service string, o VerifyOptions) (string, error) {
	var stdout, stderr bytes.Buffer
	var outW, errW io.Writer = &stdout, &stderr
	if o.Echo != nil {
		outW, errW = io.MultiWriter(&stdout, o.Echo), io.MultiWriter(&stderr, o.Echo)
	}
	cmd := []string{"spark-submit", VerifyScriptPath, strconv.Itoa(o.Rows)}
	code, err := eng.Exec(ctx, container, engine.ExecOptions{Cmd: cmd, Stdout: outW, Stderr: errW})
	if err != nil {
		return "", NotRunning(err, service)
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
func cpuHint(ctx context.Context, eng engine.Engine, container string) string {
	st, err := eng.Inspect(ctx, container)
	if err == nil && st.Labels[labels.CPUFallback] == "true" {
		return "the service runs in CPU mode (no GPU could be had at devenv up; see devenv ps and devenv doctor)"
	}
	return "see the fallback reasons above, and devenv doctor"
}
