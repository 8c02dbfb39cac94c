package sparkconf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func names(ops []Operator) []string {
	var out []string
	for _, o := range ops {
		out = append(out, o.Name)
	}
	return out
}

func TestParsePlanFixtures(t *testing.T) {
	tests := []struct {
		file      string
		gpu, cpu  []string // names that must be present
		notCPU    []string // names that must not be counted as CPU
		onGPU     bool
		final     bool
		fallbacks map[string]string // operator -> a reason it must carry
		willRun   []string
	}{
		{file: "tpch-q4-cpu.txt", cpu: []string{"Sort", "Exchange", "HashAggregate", "SortMergeJoin", "Project", "Filter", "ColumnarToRow", "BatchScan"}},
		{file: "tpch-q4-gpu-mixed.txt", onGPU: true,
			gpu: []string{"GpuColumnarToRow", "GpuProject", "GpuRowToColumnar", "GpuSort", "GpuCoalesceBatches", "GpuColumnarExchange", "GpuFilter", "GpuBatchScan"},
			cpu: []string{"Sort", "Exchange", "HashAggregate", "SortMergeJoin"}, notCPU: []string{"ColumnarToRow", "BatchScan"}},
		{file: "emr-join.txt", onGPU: true, gpu: []string{"GpuColumnarToRow", "GpuShuffledHashJoin", "GpuColumnarExchange"},
			cpu: []string{"SerializeFromObject", "Scan"}},
		{file: "aqe-final-write.txt", onGPU: true, final: true,
			gpu: []string{"GpuColumnarToRow", "GpuInsertIntoHadoopFsRelationCommand", "GpuFileGpuScan"}, notCPU: []string{"FileScan", "AdaptiveSparkPlan", "Execute"}},
		{file: "notongpu-generate.txt", fallbacks: map[string]string{
			"GenerateExec": "not all expressions can be replaced", "ReplicateRows": "GPU does not currently support the operator ReplicateRows"}},
		{file: "notongpu-rowdatasource.txt", fallbacks: map[string]string{
			"RowDataSourceScanExec": "GPU does not currently support the operator class org.apache.spark.sql.execution.RowDataSourceScanExec"}},
		{file: "explain-mapinpandas.txt", willRun: []string{"MapInPandasExec"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("testdata", "plans", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := ParsePlan(string(text))
			gpu, cpu := strings.Join(names(r.GPU), " "), " "+strings.Join(names(r.CPU), " ")+" "
			for _, n := range tt.gpu {
				if !slices.Contains(names(r.GPU), n) {
					t.Errorf("GPU operators %s lack %s", gpu, n)
				}
			}
			for _, n := range tt.cpu {
				if !slices.Contains(names(r.CPU), n) {
					t.Errorf("CPU operators%slack %s", cpu, n)
				}
			}
			for _, n := range tt.notCPU {
				if slices.Contains(names(r.CPU), n) {
					t.Errorf("CPU operators%shold %s, which did not run on the CPU", cpu, n)
				}
			}
			if r.OnGPU() != tt.onGPU || r.Final != tt.final {
				t.Errorf("OnGPU=%v Final=%v, want %v %v", r.OnGPU(), r.Final, tt.onGPU, tt.final)
			}
			reasons := r.Reasons()
			for op, want := range tt.fallbacks {
				if !slices.Contains(reasons[op], want) {
					t.Errorf("reasons for %s = %q, want %q among them", op, reasons[op], want)
				}
			}
			if len(reasons) != len(tt.fallbacks) {
				t.Errorf("fallbacks for %d operators, want %d: %v", len(reasons), len(tt.fallbacks), reasons)
			}
			if strings.Join(r.WillRun, ",") != strings.Join(tt.willRun, ",") {
				t.Errorf("WillRun = %v, want %v", r.WillRun, tt.willRun)
			}
			got, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "plan-"+strings.TrimSuffix(tt.file, ".txt")+".json", append(got, '\n'))
		})
	}
}

func TestParsePlanOddInput(t *testing.T) {
	for _, text := range []string{"", "\n\n", "== Physical Plan ==", "+- ", "*(", "!", "<>", "! <", "!Exec <X>", strings.Repeat(":  ", 500) + "+- GpuX"} {
		r := ParsePlan(text) // must not panic
		if text == strings.Repeat(":  ", 500)+"+- GpuX" && !r.OnGPU() {
			t.Errorf("deeply nested GpuX not seen")
		}
	}
}

func TestParsePlanSkipsLogicalPlans(t *testing.T) {
	text := "== Optimized Logical Plan ==\nAggregate [k], [k]\n+- Range (0, 10)\n\n== Physical Plan ==\nGpuColumnarToRow false\n+- GpuRange (0, 10, step=1, splits=2)\n"
	r := ParsePlan(text)
	if len(r.CPU) != 0 || len(r.GPU) != 2 {
		t.Errorf("GPU=%v CPU=%v; want 2 GPU operators and the logical plan ignored", r.GPU, r.CPU)
	}
}
