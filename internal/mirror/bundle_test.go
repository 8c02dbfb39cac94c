package mirror

import (
	"slices"
	"strings"
	"testing"
)

func TestDatabricksBundle(t *testing.T) {
	for _, tc := range []struct {
		name, doc                          string
		label, spark, worker, cloud, errIs string
	}{
		{"job_clusters", `
workspace: {host: https://x.azuredatabricks.net}
resources:
  jobs:
    j:
      tasks: [{task_key: a, job_cluster_key: c}]
      job_clusters:
        - job_cluster_key: c
          new_cluster: {spark_version: 13.3.x-gpu-ml-scala2.12, node_type_id: Standard_NC4as_T4_v3, num_workers: 2}
`, "13.3.x-gpu-ml-scala2.12", "3.4.1", "Standard_NC4as_T4_v3", "azure", ""},
		{"tasks new_cluster", `
bundle: {name: b}
workspace: {host: https://myworkspace.cloud.databricks.com}
resources:
  jobs:
    j:
      tasks:
        - task_key: t
          new_cluster: {node_type_id: i3.xlarge, num_workers: 1, spark_version: 14.3.x-scala2.12}
`, "14.3.x-scala2.12", "3.5.0", "i3.xlarge", "aws", ""},
		{"JSON bundle", `{"resources": {"jobs": {"j": {"tasks": [{"task_key": "t",
  "new_cluster": {"spark_version": "15.4.x-scala2.12", "node_type_id": "n2-highmem-4"}}]}}}}`,
			"15.4.x-scala2.12", "3.5.0", "n2-highmem-4", "", ""},
		{"existing cluster only", `
resources:
  jobs:
    j:
      tasks: [{task_key: t, existing_cluster_id: 0123-abc}]
`, "", "", "", "", "without a cluster"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if f := detectBytes([]byte(tc.doc)); f != FormatDatabricks {
				t.Fatalf("detected as %q, want databricks", f)
			}
			p, err := importBytes("databricks.yml", FormatDatabricks, []byte(tc.doc))
			if tc.errIs != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errIs) {
					t.Fatalf("err = %v, want one saying %q", err, tc.errIs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Runtime.Label != tc.label || p.Runtime.Spark != tc.spark || p.Topology.WorkerType != tc.worker {
				t.Errorf("label %q spark %q worker %q, want %q %q %q", p.Runtime.Label, p.Runtime.Spark, p.Topology.WorkerType, tc.label, tc.spark, tc.worker)
			}
			if tc.cloud != "" && p.Source.Cloud != tc.cloud {
				t.Errorf("cloud %q, want %q", p.Source.Cloud, tc.cloud)
			}
		})
	}
}

// An asset bundle may hold all-purpose clusters alone (resources.clusters),
// no job: a real one of databricks/cli, two clusters of 13.3 on i3.xlarge.
func TestDatabricksBundleClusters(t *testing.T) {
	p, err := Import("testdata/real/bundle-clusters-num-workers-absent.yml", Options{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "format", p.Source.Format, FormatDatabricks)
	eq(t, "label", p.Runtime.Label, "13.3.x-scala2.12")
	eq(t, "spark", p.Runtime.Spark, "3.4.1")
	eq(t, "worker", p.Topology.WorkerType, "i3.xlarge")
	eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(2048))
	if !slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "resources.clusters.cluster1") }) {
		t.Errorf("warnings %q do not say which cluster was read", p.Warnings)
	}
}
