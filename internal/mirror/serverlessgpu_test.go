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

// TestServerless reads jobs on serverless compute without accelerators: a
// real Jobs API job whose task names an environment_key, and a bundle job
// whose tasks name no compute at all.
func TestServerless(t *testing.T) {
	job, err := os.ReadFile(filepath.Join("testdata", "real", "databricks", "dbsvless-serverless-job2.json"))
	if err != nil {
		t.Fatal(err)
	}
	bundle := "bundle:\n  name: b\nresources:\n  jobs:\n    ingest:\n      tasks:\n        - task_key: load\n          notebook_task:\n            notebook_path: ./load.py\n"
	classic := strings.Replace(bundle, "notebook_task:", "existing_cluster_id: 0101-abc\n          notebook_task:", 1)
	for _, tc := range []struct {
		name, file, data, where, err string
	}{
		{"jobs API with an environment", "job.json", string(job), "tasks[0].environment_key default", ""},
		{"bundle naming no compute", "databricks.yml", bundle, "resources.jobs.ingest.tasks (none names a cluster)", ""},
		{"a task on an existing cluster is no serverless job", "databricks.yml", classic, "", "without a cluster"},
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
			warnings := strings.Join(p.Warnings, "\n")
			if p.Source.Platform != "databricks" || !strings.Contains(warnings, tc.where+": the job runs on serverless compute") {
				t.Errorf("platform %q, warnings %q; want databricks and a warning naming %s", p.Source.Platform, warnings, tc.where)
			}
		})
	}
}

// TestDatabricksIsSingleNode reads a real bundle whose job cluster says
// is_single_node: true (kind CLASSIC_PREVIEW), with no num_workers.
func TestDatabricksIsSingleNode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "databricks", "drift-example-databricks-workflow.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := importBytes("databricks.yml", detectBytes(data), data)
	if err != nil {
		t.Fatal(err)
	}
	tp := p.Topology
	if !tp.SingleNode || tp.Workers != 0 || tp.WorkerType != "Standard_D4s_v5" || !strings.Contains(tp.WorkersProvenance, "is_single_node") {
		t.Errorf("single node %v, %d workers of %q (%s); want one Standard_D4s_v5 node from is_single_node", tp.SingleNode, tp.Workers, tp.WorkerType, tp.WorkersProvenance)
	}
}
