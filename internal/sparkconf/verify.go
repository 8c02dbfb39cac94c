package sparkconf

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// Markers around the verify program's results on stdout.
const (
	VerifyBegin = "DEVENV-VERIFY-BEGIN"
	VerifyEnd   = "DEVENV-VERIFY-END"
)

//go:embed verify.py
var verifyScript []byte

// VerifyScript returns the PySpark program `devenv verify` runs with
// spark-submit; its one optional argument is the number of rows.
func VerifyScript() []byte { return append([]byte(nil), verifyScript...) }

// VerifyRun is one run of the verify query.
type VerifyRun struct {
	RapidsEnabled bool       `json:"rapids_enabled"`
	Rows          int64      `json:"rows"`
	Groups        int64      `json:"groups"`
	WallSeconds   float64    `json:"wall_seconds"`
	Plan          string     `json:"plan"`
	Report        PlanReport `json:"report"`
}

// VerifyResult is the verify program's two runs and how they compare.
type VerifyResult struct {
	GPU VerifyRun `json:"gpu"` // spark.rapids.sql.enabled=true
	CPU VerifyRun `json:"cpu"` // spark.rapids.sql.enabled=false
	// Speedup is the CPU run's wall time over the GPU run's; 0 when unknown.
	Speedup float64 `json:"speedup"`
}

// OnGPU reports whether the run with the plugin enabled put any operator on the GPU.
func (r VerifyResult) OnGPU() bool { return r.GPU.Report.OnGPU() }

// ParseVerifyOutput reads the verify program's stdout: one JSON object per
// run between VerifyBegin and VerifyEnd. It parses each run's plan and
// computes the speedup.
func ParseVerifyOutput(stdout string) (VerifyResult, error) {
	var res VerifyResult
	body, err := verifyBody(stdout)
	if err != nil {
		return res, err
	}
	var gotGPU, gotCPU bool
	for i, line := range body {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var run VerifyRun
		if err := json.Unmarshal([]byte(line), &run); err != nil {
			return res, fmt.Errorf("verify output, line %d after %s: %w; the program and this devenv may not match, rebuild the image with devenv up", i+1, VerifyBegin, err)
		}
		run.Report = ParsePlan(run.Plan)
		if run.RapidsEnabled {
			res.GPU, gotGPU = run, true
		} else {
			res.CPU, gotCPU = run, true
		}
	}
	if !gotGPU || !gotCPU {
		return res, fmt.Errorf("verify output holds %s; it needs one run with spark.rapids.sql.enabled=true and one with false", runsFound(gotGPU, gotCPU))
	}
	if res.GPU.WallSeconds > 0 {
		res.Speedup = res.CPU.WallSeconds / res.GPU.WallSeconds
	}
	return res, nil
}

// verifyBody returns the lines between the markers.
func verifyBody(stdout string) ([]string, error) {
	lines := strings.Split(strings.ReplaceAll(stdout, "\r\n", "\n"), "\n")
	begin, end := -1, -1
	for i, l := range lines {
		switch strings.TrimSpace(l) {
		case VerifyBegin:
			begin = i
		case VerifyEnd:
			if begin >= 0 && end < 0 {
				end = i
			}
		}
	}
	switch {
	case begin < 0:
		return nil, fmt.Errorf("no %s line in the verify program's output: it stopped before printing results; its last lines were:\n%s", VerifyBegin, tail(lines, 5))
	case end < 0:
		return nil, fmt.Errorf("the verify program's output ends before %s: it was cut off; its last lines were:\n%s", VerifyEnd, tail(lines, 5))
	}
	return lines[begin+1 : end], nil
}

func tail(lines []string, n int) string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 0 {
		return "  (nothing)"
	}
	return "  " + strings.Join(lines, "\n  ")
}

func runsFound(gpu, cpu bool) string {
	switch {
	case gpu:
		return "only the run with the plugin enabled"
	case cpu:
		return "only the run with the plugin disabled"
	}
	return "no runs"
}
