package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServerlessGPU: a Databricks job on serverless GPU compute (no
// cluster) is imported with the GPUs its hardware accelerator encodes, in
// an asset bundle (a real training file) and in Jobs API JSON; a value of
// another form is refused naming where it is.
func TestServerlessGPU(t *testing.T) {
	bundle, err := os.ReadFile(filepath.Join("testdata", "corpus", "train", "pfncb-b7-databricks.yml"))
	if err != nil {
		t.Fatal(err)
	}
	job := `{"name": "train", "tasks": [{"task_key": "fit", "notebook_task": {"notebook_path": "/fit"}, "compute": {"hardware_accelerator": "GPU_8xH100"}}]}`
	for _, tc := range []struct {
		name, file, data string
		perNode          int
		model, err       string
	}{
		{"bundle", "databricks.yml", string(bundle), 1, "A10", ""},
		{"jobs API", "job.json", job, 8, "H100", ""},
		{"not an accelerator", "job.json", strings.Replace(job, "GPU_8xH100", "GPU_LARGE", 1), 0, "", `tasks[0].compute.hardware_accelerator is "GPU_LARGE"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := importBytes(tc.file, detectBytes([]byte(tc.data)), []byte(tc.data))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Source.Platform != "databricks" || p.GPU.PerNode != tc.perNode || p.GPU.Model != tc.model {
				t.Errorf("platform %q, %d GPUs per node of %q; want databricks, %d of %q", p.Source.Platform, p.GPU.PerNode, p.GPU.Model, tc.perNode, tc.model)
			}
			if !strings.Contains(strings.Join(p.Warnings, "\n"), "Databricks picks its runtime") {
				t.Errorf("no warning that the runtime is Databricks' choice: %q", p.Warnings)
			}
		})
	}
}
