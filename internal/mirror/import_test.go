package mirror

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
)

// importCases are every importer on real fixtures (testdata/real) and on
// files written from the documented formats (testdata/written).
var importCases = []struct {
	name, path, format string
	full               bool
}{
	{"databricks-aws", "real/databricks-aws-cpu-00.json", "", false},
	{"databricks-azure", "real/databricks-azure-cpu-00.json", "", false},
	{"databricks-gpu-job", "written/databricks-gpu-job.json", "", false},
	{"emr-describe", "real/emr-cpu-00.json", "", false},
	{"emr-describe-gpu", "written/emr-describe-gpu.json", "", false},
	{"emr-configurations", "written/emr-configurations-gpu.json", "", false},
	{"dataproc", "real/dataproc-cpu-00.yaml", "", false},
	{"dataproc-gke", "real/dataproc-gke-cpu-00.yaml", "", false},
	{"dataproc-gpu", "written/dataproc-gpu.yaml", "", false},
	{"sparkapp", "written/sparkapp-gpu.yaml", "", false},
	{"spark-defaults", "written/spark-defaults.conf", "", false},
	{"spark-submit", "written/spark-submit.sh", "", false},
	{"tools-worker-info", "real/worker_info.yaml", "", false},
	{"tools-target", "real/targetCluster01.yaml", "", false},
	{"tools-onprem", "real/onprem-cpu-00.yaml", "", false},
	{"eventlog-gpu", "real/gpu_eventlog", "", false},
	{"eventlog-gpu-full", "real/gpu_eventlog", "", true},
	{"eventlog-dsv1", "real/eventlog-gpu-dsv1.zstd", "", false},
	{"eventlog-4nodes-full", "real/eventlog_4nodes_8cores_dynamic_alloc.zstd", "", true},
	{"eventlog-xgboost-dbx", "real/xgboost_eventlog.zstd", "", false},
	{"eventlog-rapids-join", "real/rapids_join_eventlog.zstd", "", false},
	{"eventlog-spark2", "real/spark2-eventlog.zstd", "", false},
	{"eventlog-malformed", "real/malformed_json_eventlog.zstd", "", true},
	{"eventlog-truncated", "real/truncated_eventlog", "", true},
	{"eventlog-rolling", "written/eventlog_v2_local-1621955976602", "", true},
	{"eventlog-dbx-window128m", "written/xgboost_eventlog_window128m.zstd", "", true},
	{"eventlog-failed", "written/gpu_eventlog_failed", "", true},
	{"eventlog-wrong-extension", "written/gpu_eventlog_zstd_named.lz4", "", false},
	{"forced-format", "real/emr-cpu-00.json", FormatEMR, false},
}

func TestImportGolden(t *testing.T) {
	for _, tc := range importCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Import(filepath.Join("testdata", tc.path), Options{Format: tc.format, Full: tc.full})
			if err != nil {
				t.Fatalf("Import: %v", err)
			}
			got, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", "golden", tc.name+".json"), append(got, '\n'))
		})
	}
}

// checkGolden compares got with the golden file, rewriting it with -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	goldenfile.Check(t, path, got)
}

// TestImportFacts pins the facts that matter on each source, so a golden
// file rewritten with a regression cannot hide it.
func TestImportFacts(t *testing.T) {
	cases := []struct {
		path  string
		full  bool
		check func(t *testing.T, p *Profile)
	}{
		{"real/gpu_eventlog", false, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.1.1")
			eq(t, "spark provenance", p.Runtime.SparkProvenance, "eventlog:SparkListenerLogStart")
			eq(t, "java", p.Runtime.Java, "8")
			eq(t, "java full", p.Runtime.JavaFull, "1.8.0_282")
			eq(t, "scala", p.Runtime.ScalaFull, "2.12.10")
		}},
		{"real/eventlog_4nodes_8cores_dynamic_alloc.zstd", true, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.2.1")
			eq(t, "executor cores", p.Topology.ExecutorCores, 4)
			eq(t, "executor gpus", p.GPU.ExecutorGPUs, 1.0)
			eq(t, "task gpu", p.GPU.TaskGPU, 0.25)
			eq(t, "task gpu provenance", p.GPU.TaskGPUProvenance, "eventlog:SparkListenerResourceProfileAdded 0 (default)")
			eq(t, "executor cores provenance", p.Topology.ExecutorCoresProvenance, "eventlog:SparkListenerExecutorAdded (Total Cores, resource profile 0)")
			eq(t, "platform", p.Source.Platform, "yarn")
			eq(t, "format", p.Source.Format, "eventlog+zstd")
		}},
		{"real/xgboost_eventlog.zstd", false, func(t *testing.T, p *Profile) {
			eq(t, "platform", p.Source.Platform, "databricks")
			eq(t, "spark", p.Runtime.Spark, "3.2.1")
			eq(t, "label", p.Runtime.Label, "10.4.x-cpu-ml-scala2.12")
			eq(t, "java full", p.Runtime.JavaFull, "1.8.0_302")
		}},
		{"real/databricks-aws-cpu-00.json", false, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.2.1")
			eq(t, "spark provenance", p.Runtime.SparkProvenance, "table:databricks-runtime 10.4")
			eq(t, "workers", p.Topology.Workers, 4)
			eq(t, "cloud", p.Source.Cloud, "aws")
			if len(p.Redacted) == 0 {
				t.Errorf("secret references were not redacted")
			}
		}},
		{"written/databricks-gpu-job.json", false, func(t *testing.T, p *Profile) {
			eq(t, "rapids", p.GPU.Rapids, "24.10.1")
			eq(t, "spark", p.Runtime.Spark, "3.4.1")
			eq(t, "cuda", p.GPU.CUDA, "11.7")
			eq(t, "workers", p.Topology.Workers, 2)
			eq(t, "workers max", p.Topology.WorkersMax, 8)
			eq(t, "task gpu", p.GPU.TaskGPU, 0.125)
			eq(t, "rapids enabled", p.GPU.RapidsEnabled, true)
		}},
		{"real/emr-cpu-00.json", false, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "2.4.4")
			eq(t, "spark provenance", p.Runtime.SparkProvenance, "emr:Applications")
			eq(t, "workers", p.Topology.Workers, 2)
		}},
		{"written/emr-describe-gpu.json", false, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.3.0")
			eq(t, "rapids", p.GPU.Rapids, "22.06.0")
			eq(t, "workers", p.Topology.Workers, 4)
		}},
		{"written/emr-configurations-gpu.json", false, func(t *testing.T, p *Profile) {
			eq(t, "java", p.Runtime.Java, "17")
			eq(t, "rapids enabled", p.GPU.RapidsEnabled, true)
		}},
		{"real/dataproc-cpu-00.yaml", false, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.1.3")
			eq(t, "label", p.Runtime.Label, "2.0.50-ubuntu18")
			eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(12022))
			eq(t, "workers", p.Topology.Workers, 2)
		}},
		{"real/dataproc-gke-cpu-00.yaml", false, func(t *testing.T, p *Profile) {
			eq(t, "platform", p.Source.Platform, "dataproc-gke")
			eq(t, "spark", p.Runtime.Spark, "3.1.3")
		}},
		{"written/dataproc-gpu.yaml", false, func(t *testing.T, p *Profile) {
			eq(t, "gpus per node", p.GPU.PerNode, 2)
			eq(t, "model", p.GPU.Model, "T4")
			eq(t, "rapids", p.GPU.Rapids, "24.08.1")
			eq(t, "java", p.Runtime.Java, "11")
		}},
		{"written/sparkapp-gpu.yaml", false, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.1.1")
			eq(t, "executors", p.Topology.Executors, 2)
			eq(t, "executor gpus", p.GPU.ExecutorGPUs, 1.0)
			eq(t, "rapids", p.GPU.Rapids, "22.06.0")
			eq(t, "hadoop conf", p.Conf["spark.hadoop.fs.s3a.endpoint"], "s3.internal")
		}},
		{"written/spark-defaults.conf", false, func(t *testing.T, p *Profile) {
			eq(t, "later duplicate wins", p.Conf["spark.executor.memory"], "18g")
			eq(t, "continuation", p.Conf["spark.driver.extraJavaOptions"], "-Dlog4j.configuration=file:/etc/spark/log4j.properties -Dfile.encoding=UTF-8")
			eq(t, "unicode escape", p.Conf["spark.sql.session.timeZone"], "UTC")
			eq(t, "escaped space", p.Conf["spark.app.name"], "nightly job")
			eq(t, "rapids", p.GPU.Rapids, "24.02.0")
			eq(t, "platform", p.Source.Platform, "yarn")
		}},
		{"written/spark-submit.sh", false, func(t *testing.T, p *Profile) {
			eq(t, "executors", p.Topology.Executors, 6)
			eq(t, "memory", p.Topology.ExecutorMemoryMB, int64(32768))
			eq(t, "quoted conf", p.Conf["spark.executor.resource.gpu.amount"], "1")
			eq(t, "driver memory with =", p.Conf["spark.driver.memory"], "8g")
			eq(t, "app name with space", p.Conf["spark.app.name"], "gpu etl")
			eq(t, "rapids", p.GPU.Rapids, "25.02.0")
			eq(t, "platform", p.Source.Platform, "kubernetes")
		}},
		{"real/worker_info.yaml", false, func(t *testing.T, p *Profile) {
			eq(t, "gpus per node", p.GPU.PerNode, 4)
			eq(t, "workers", p.Topology.Workers, 5)
		}},
		{"written/eventlog_v2_local-1621955976602", true, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.1.1")
			eq(t, "format", p.Source.Format, "eventlog+gzip+lz4+zstd")
			if len(p.Warnings) != 0 {
				t.Errorf("rolling log read with warnings: %v", p.Warnings)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			p, err := Import(filepath.Join("testdata", tc.path), Options{Full: tc.full})
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, p)
			for _, k := range p.Redacted {
				if _, ok := p.Conf[k]; ok {
					t.Errorf("redacted key %s is also in conf", k)
				}
				if _, ok := p.Dropped[k]; ok {
					t.Errorf("redacted key %s is also in dropped", k)
				}
			}
		})
	}
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestSecretsNeverCopied(t *testing.T) {
	secrets := []string{"AbCdEf", "hunter2", "s3cr3t", "{{secrets/prod/lake-key}}", "config.token=abc"}
	for _, tc := range importCases {
		p, err := Import(filepath.Join("testdata", tc.path), Options{Format: tc.format, Full: tc.full})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		out, _ := json.Marshal(p)
		loc, _ := json.Marshal(p.Localize(Host{CPUs: 8, MemoryMB: 32768, GPUs: 1, GPUMemoryMB: 16384}))
		for _, s := range secrets {
			if strings.Contains(string(out), s) || strings.Contains(string(loc), s) {
				t.Errorf("%s: secret %q was copied", tc.name, s)
			}
		}
	}
}
