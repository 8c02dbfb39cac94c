package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/sparkconf"
)

// verifyOutput is what verify.py prints for two runs over recorded plans
// (testdata/jobs/plans, see SOURCES.md there).
func verifyOutput(t *testing.T, gpuPlans []string, gpuSecs, cpuSecs float64) string {
	t.Helper()
	read := func(names []string) string {
		var b strings.Builder
		for _, n := range names {
			data, err := os.ReadFile(filepath.Join("testdata", "jobs", "plans", n))
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
		}
		return b.String()
	}
	var b strings.Builder
	b.WriteString("25/06/01 12:00:00 WARN NativeCodeLoader: Unable to load native-hadoop library\n" + sparkconf.VerifyBegin + "\n")
	for _, r := range []sparkconf.VerifyRun{
		{RapidsEnabled: true, Rows: 1000000, Groups: 100, WallSeconds: gpuSecs, Plan: read(gpuPlans)},
		{RapidsEnabled: false, Rows: 1000000, Groups: 100, WallSeconds: cpuSecs, Plan: read([]string{"tpch-q4-cpu.txt"})},
	} {
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	}
	b.WriteString(sparkconf.VerifyEnd + "\n")
	return b.String()
}

func TestPrintVerify(t *testing.T) {
	tests := []struct {
		name     string
		gpuPlans []string
		gpuSecs  float64
		onGPU    bool
	}{
		{"gpu-with-fallbacks", []string{"tpch-q4-gpu-mixed.txt", "notongpu-generate.txt"}, 2.5, true},
		{"nothing-on-gpu", []string{"tpch-q4-cpu.txt"}, 9.5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := sparkconf.ParseVerifyOutput(verifyOutput(t, tt.gpuPlans, tt.gpuSecs, 10))
			if err != nil {
				t.Fatal(err)
			}
			rep := &app.VerifyReport{Service: "spark", OnGPU: res.OnGPU(), VerifyResult: res}
			if rep.OnGPU != tt.onGPU {
				t.Errorf("OnGPU = %v, want %v", rep.OnGPU, tt.onGPU)
			}
			var b bytes.Buffer
			printVerify(&b, rep)
			goldenJobs(t, "verify-"+tt.name+".txt", b.Bytes())
		})
	}
}
