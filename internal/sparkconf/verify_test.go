package sparkconf

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func readPlan(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "plans", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// verifyStdout builds what the verify program prints, with Spark's noise around it.
func verifyStdout(t *testing.T, runs ...VerifyRun) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("Setting default log level to \"WARN\".\n" + VerifyBegin + "\n")
	for _, r := range runs {
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteString("\n")
	}
	b.WriteString(VerifyEnd + "\n")
	return b.String()
}

func TestParseVerifyOutput(t *testing.T) {
	gpuPlan, cpuPlan := readPlan(t, "emr-join.txt"), readPlan(t, "tpch-q4-cpu.txt")
	gpuRun := VerifyRun{RapidsEnabled: true, Rows: 1000, Groups: 10, WallSeconds: 2, Plan: gpuPlan}
	cpuRun := VerifyRun{RapidsEnabled: false, Rows: 1000, Groups: 10, WallSeconds: 10, Plan: cpuPlan}
	noGPU := gpuRun
	noGPU.Plan = cpuPlan

	tests := []struct {
		name    string
		stdout  string
		onGPU   bool
		speedup float64
		wantErr string
	}{
		{"both runs", verifyStdout(t, gpuRun, cpuRun), true, 5, ""},
		{"plugin enabled but nothing on the GPU", verifyStdout(t, noGPU, cpuRun), false, 5, ""},
		{"no begin marker", "Traceback (most recent call last):\nModuleNotFoundError: No module named 'pyspark'\n", false, 0, "No module named 'pyspark'"},
		{"cut off", VerifyBegin + "\n{}\n", false, 0, "cut off"},
		{"not JSON", VerifyBegin + "\n{oops\n" + VerifyEnd + "\n", false, 0, "line 1"},
		{"one run", verifyStdout(t, gpuRun), false, 0, "only the run with the plugin enabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseVerifyOutput(tt.stdout)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to say %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.OnGPU() != tt.onGPU || res.Speedup != tt.speedup {
				t.Errorf("OnGPU=%v speedup=%v, want %v %v", res.OnGPU(), res.Speedup, tt.onGPU, tt.speedup)
			}
			if len(res.CPU.Report.GPU) != 0 {
				t.Errorf("the CPU run's plan shows GPU operators %v", res.CPU.Report.GPU)
			}
		})
	}
}

func TestVerifyScript(t *testing.T) {
	src := string(VerifyScript())
	for _, want := range []string{VerifyBegin, VerifyEnd, "spark.range(rows)", "F.stddev", "F.avg", "F.count", "orderBy",
		`"spark.rapids.sql.enabled", "true" if gpu else "false"`, "executedPlan()", "sys.argv"} {
		if !strings.Contains(src, want) {
			t.Errorf("verify program lacks %q", want)
		}
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to compile the verify program")
	}
	path := filepath.Join(t.TempDir(), "verify.py")
	if err := os.WriteFile(path, VerifyScript(), 0o644); err != nil {
		t.Fatal(err)
	}
	code := "import ast,sys; ast.parse(open(sys.argv[1]).read())"
	if out, err := exec.Command(py, "-c", code, path).CombinedOutput(); err != nil {
		t.Errorf("verify program does not parse as Python: %v\n%s", err, out)
	}
}
