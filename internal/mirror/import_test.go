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
	{"eventlog-v2-real", "real/eventlog_v2_local-1623876083964", "", true},
	{"eventlog-dbx-dir-gzip", "real/db_sim_eventlog", "", false},
	{"eventlog-gpu-oom", "real/gpu_oom_eventlog.zstd", "", true},
	{"eventlog-dataproc-2.2", "public/nds_q72_dataproc_2_2.zstd", "", true},
	{"eventlog-tasks-fail", "real/tasks_executors_fail_compressed_eventlog.zstd", "", true},
	{"dataproc-mlvm-hub", "real/dataproc/mlvm-hub-b40ba6d8.yaml", "", false},
	{"dataproc-mlvm-hub-rc", "real/dataproc/mlvm-hub-d2938335.yaml", "", false},
	{"sparkapp-pi", "real/sparkoperator/spark-pi.yaml", "", false},
	{"sparkapp-pi-v3.1.1", "real/sparkoperator/spark-pi-v3.1.1.yaml", "", false},
	{"sparkapp-pi-v2.4.0", "real/sparkoperator/spark-pi-v2.4.0.yaml", "", false},
	{"sparkapp-pi-python", "public/holdout/spark-pi-python.yaml", "", false},
	{"sparkapp-pi-dynamic", "public/spark-pi-dynamic-allocation.yaml", "", false},
	{"script-bis-test", "real/scripts/bis-test-run.sh", "", false},
	{"script-hudi", "real/scripts/hudi-spark.sh", "", false},
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

// TestFactsOutsideConf reads versions and platforms stated outside the
// confs' version keys, each case a line a prod file really carries.
func TestFactsOutsideConf(t *testing.T) {
	cases := []struct {
		name  string
		conf  map[string]string
		env   map[string]string
		check func(t *testing.T, p *Profile)
	}{
		{"image tag with scala, java, python", map[string]string{"spark.kubernetes.container.image": "apache/spark:3.4.1-scala2.12-java11-python3-ubuntu"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.4.1")
			eq(t, "scala", p.Runtime.Scala, "2.12")
			eq(t, "java", p.Runtime.Java, "11")
			eq(t, "python", p.Runtime.Python, "3")
		}},
		{"spark 4 image", map[string]string{"spark.kubernetes.container.image": "docker.io/apache/spark:4.0.1@sha256:" + strings.Repeat("a", 64)}, nil, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "4.0.1")
			eq(t, "scala", p.Runtime.Scala, "2.13")
		}},
		{"not a spark image", map[string]string{"spark.kubernetes.container.image": "registry.corp:5000/etl/jobs:2.1.0"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "")
		}},
		{"JAVA_HOME", map[string]string{"spark.executorEnv.JAVA_HOME": "/usr/lib/jvm/java-11-openjdk-amd64"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "java", p.Runtime.Java, "11")
		}},
		{"JAVA_HOME jdk1.8", nil, map[string]string{"JAVA_HOME": "/usr/lib/jvm/jdk1.8.0_282"}, func(t *testing.T, p *Profile) {
			eq(t, "java", p.Runtime.Java, "8")
		}},
		{"pyspark python", map[string]string{"spark.pyspark.python": "/usr/bin/python3.10"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "python", p.Runtime.Python, "3.10")
		}},
		{"shim class", map[string]string{"spark.shuffle.manager": "com.nvidia.spark.rapids.spark341.RapidsShuffleManager"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.4.1")
		}},
		{"databricks shim", map[string]string{"spark.shuffle.manager": "com.nvidia.spark.rapids.spark350db143.RapidsShuffleManager"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "3.5.0")
			eq(t, "platform", p.Source.Platform, "databricks")
		}},
		{"spark module jar", map[string]string{"spark.jars": "local:///opt/spark/examples/jars/spark-examples_2.11-2.4.0.jar"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "spark", p.Runtime.Spark, "2.4.0")
			eq(t, "scala", p.Runtime.Scala, "2.11")
		}},
		{"rapids jar", map[string]string{"spark.jars": "/opt/jars/rapids-4-spark_2.12-24.06.0.jar"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "rapids", p.GPU.Rapids, "24.06.0")
			eq(t, "scala", p.Runtime.Scala, "2.12")
		}},
		{"yarn application id", map[string]string{"spark.app.id": "application_1553914137147_0018"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "platform", p.Source.Platform, "yarn")
		}},
		{"emr cluster id", map[string]string{"spark.yarn.tags": "emr-cluster-id=j-2AXXXXXXGAPLF"}, nil, func(t *testing.T, p *Profile) {
			eq(t, "platform", p.Source.Platform, "emr")
			eq(t, "cloud", p.Source.Cloud, "aws")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newProfile("test", FormatSparkDefaults)
			for k, v := range tc.conf {
				p.addConf(k, v, "test")
			}
			for k, v := range tc.env {
				p.addEnv(k, v)
			}
			p.deriveFromConf()
			tc.check(t, p)
		})
	}
	for _, tc := range []struct{ worker, cloud string }{{"g4dn.xlarge", "aws"}, {"p4d.24xlarge", "aws"}, {"Standard_NC6s_v3", "azure"},
		{"n1-standard-8", "gcp"}, {"a2-highgpu-1g", "gcp"}, {"worker-7", ""}} {
		p := newProfile("test", FormatSparkDefaults)
		p.Topology.WorkerType = tc.worker
		p.deriveFromConf()
		eq(t, tc.worker+" cloud", p.Source.Cloud, tc.cloud)
	}
}

// TestRealFilesFacts pins the facts read by hand from the collected real
// files (testdata/real/SOURCES.md), and the clear refusals of the two that
// are broken as published.
func TestRealFilesFacts(t *testing.T) {
	type facts struct{ spark, scala, python, platform, packages string }
	cases := []struct {
		path string
		want facts
	}{
		{"real/eventlog_v2_local-1623876083964", facts{"3.1.1", "2.12", "", "local", ""}},
		{"real/db_sim_eventlog", facts{"3.1.1", "2.12", "", "local", ""}},
		{"real/gpu_oom_eventlog.zstd", facts{"3.3.1", "2.12", "", "standalone", ""}},
		{"public/nds_q72_dataproc_2_2.zstd", facts{"3.5.3", "2.12", "", "dataproc", ""}},
		{"real/tasks_executors_fail_compressed_eventlog.zstd", facts{"3.1.1", "2.12", "", "yarn", ""}},
		{"real/sparkoperator/spark-pi.yaml", facts{"4.0.4", "2.13", "", "kubernetes", ""}},
		{"real/sparkoperator/spark-pi-v3.1.1.yaml", facts{"3.1.1", "2.12", "", "kubernetes", ""}},
		{"real/sparkoperator/spark-pi-v2.4.0.yaml", facts{"2.4.0", "2.11", "", "kubernetes", ""}},
		{"public/holdout/spark-pi-python.yaml", facts{"4.0.4", "2.13", "3", "kubernetes", ""}},
		{"public/spark-pi-dynamic-allocation.yaml", facts{"4.0.4", "2.13", "", "kubernetes", ""}},
		{"real/scripts/bis-test-run.sh", facts{"3.4", "2.12", "", "local", "io.delta:delta-core_2.12:2.4.0"}}, // the line Delta 2.4 is built for
		{"real/scripts/hudi-spark.sh", facts{"", "2.12", "", "", "org.apache.hudi:hudi-spark3.2-bundle_2.12:0.14.0"}},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			p, err := Import(filepath.Join("testdata", tc.path), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var pk []string
			for _, x := range p.Packages {
				pk = append(pk, x.Coords)
			}
			got := facts{p.Runtime.Spark, p.Runtime.Scala, p.Runtime.Python, p.Source.Platform, strings.Join(pk, ",")}
			if got != tc.want {
				t.Errorf("facts %+v, want %+v", got, tc.want)
			}
		})
	}
	for _, f := range []string{"real/dataproc/mlvm-hub-b40ba6d8.yaml", "real/dataproc/mlvm-hub-d2938335.yaml"} {
		hub, err := Import(filepath.Join("testdata", f), Options{})
		if err != nil {
			t.Fatal(err)
		}
		eq(t, f+" platform", hub.Source.Platform, "dataproc")
		eq(t, f+" spark (image 2.0)", hub.Runtime.Spark, "3.1.3")
		eq(t, f+" java", hub.Runtime.Java, "8")
		eq(t, f+" gpus per worker", hub.GPU.PerNode, 2)
		eq(t, f+" gpu", hub.GPU.Model, "T4")
		eq(t, f+" rapids on", hub.GPU.RapidsEnabled, true)
		eq(t, f+" workers", hub.Topology.Workers, 2)
		eq(t, f+" worker vcpus", hub.Topology.WorkerVCPUs, 32)
	}
	oom, _ := Import(filepath.Join("testdata", "real/gpu_oom_eventlog.zstd"), Options{Full: true})
	eq(t, "gpu-oom java", oom.Runtime.JavaFull, "1.8.0_422")
	eq(t, "gpu-oom rapids", oom.GPU.Rapids, "25.02.0")
	eq(t, "gpu-oom cuda (jar classifier)", oom.GPU.CUDA, "11")
	eq(t, "gpu-oom executor cores", oom.Topology.ExecutorCores, 16)
	eq(t, "gpu-oom task gpu", oom.GPU.TaskGPU, 0.0625)
	oomTasks := 0
	for _, f := range oom.Failures {
		if f.Kind == FailTask && strings.Contains(f.Reason, "GpuSplitAndRetryOOM") {
			oomTasks += f.Count
			if f.Count < 100 {
				t.Errorf("GpuSplitAndRetryOOM failures are split by buffer address: %d in one group", f.Count)
			}
		}
	}
	eq(t, "gpu-oom failed tasks", oomTasks, 112)
	dp, _ := Import(filepath.Join("testdata", "public/nds_q72_dataproc_2_2.zstd"), Options{})
	eq(t, "dataproc 2.2 java", dp.Runtime.JavaFull, "11.0.20.1")
	eq(t, "dataproc 2.2 cloud (host names)", dp.Source.Cloud, "gcp")
	eq(t, "dataproc 2.2 executor memory", dp.Topology.ExecutorMemoryMB, int64(40960))
	p, _ := Import(filepath.Join("testdata", "public/spark-pi-dynamic-allocation.yaml"), Options{})
	eq(t, "dynamic allocation max", p.Conf["spark.dynamicAllocation.maxExecutors"], "5")
	for _, tc := range []struct{ path, want string }{
		{"real/sparkoperator/spark-pi-prometheus.yaml", "does not parse (yaml: line 22"},
		{"real/scripts/delta-docs-startup.sh", "line 10: unterminated \" quote"},
	} {
		if _, err := Import(filepath.Join("testdata", tc.path), Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.path, err, tc.want)
		}
	}
}

// TestJobScript reads a job script as people write them: variables
// assigned before spark-submit (jar names, packages, JAVA_HOME), comments,
// continuations, a ${VAR:-default}, and a heredoc of the cluster's JSON.
func TestJobScript(t *testing.T) {
	p, err := Import(filepath.Join("testdata", "written", "nightly-job.sh"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "format", p.Source.Format, FormatSparkSubmit)
	eq(t, "rapids from the jar variable", p.GPU.Rapids, "24.06.0")
	eq(t, "spark from the shim class", p.Runtime.Spark, "3.4.1")
	eq(t, "java from JAVA_HOME", p.Runtime.Java, "11")
	eq(t, "python from spark.pyspark.python", p.Runtime.Python, "3.10")
	eq(t, "label from the heredoc", p.Runtime.Label, "13.3.x-gpu-ml-scala2.12")
	eq(t, "workers from the heredoc", p.Topology.Workers, 4)
	eq(t, "worker type from the heredoc", p.Topology.WorkerType, "g5.4xlarge")
	eq(t, "heredoc conf", p.Conf["spark.task.resource.gpu.amount"], "0.25")
	eq(t, "default of an unset variable", p.Conf["spark.sql.shuffle.partitions"], "200")
	eq(t, "platform (--master wins over the heredoc)", p.Source.Platform, "yarn")
	eq(t, "cloud", p.Source.Cloud, "aws")
	var pk []string
	for _, x := range p.Packages {
		pk = append(pk, x.Coords)
	}
	eq(t, "packages", strings.Join(pk, ","), "io.delta:delta-spark_2.12:3.2.0,org.apache.hadoop:hadoop-aws:3.3.4")
}

// TestDataprocImageVersions maps every Dataproc image line from 1.5 to 2.3
// (and the OS suffixes people write) to its Spark, Scala, Java and Python.
func TestDataprocImageVersions(t *testing.T) {
	for _, tc := range []struct{ image, spark, scala, java, python string }{
		{"1.5.98-debian10", "2.4.8", "2.12", "8", "3.7"},
		{"2.0.50-ubuntu18", "3.1.3", "2.12", "8", "3.8"},
		{"2.1", "3.3.2", "2.12", "11", "3.10"},
		{"2.2.30-debian12", "3.5.3", "2.12", "11", "3.11"},
		{"2.3-rocky9", "3.5.3", "2.12", "11", "3.11"},
	} {
		doc := "clusterName: c\nconfig:\n  softwareConfig:\n    imageVersion: " + tc.image + "\n  workerConfig:\n    machineTypeUri: n1-standard-8\n    numInstances: 2\n"
		p, err := importDataproc("x.yaml", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		r := p.Runtime
		if r.Spark != tc.spark || r.Scala != tc.scala || r.Java != tc.java || r.Python != tc.python {
			t.Errorf("Dataproc %s: spark %s scala %s java %s python %s; want %s %s %s %s", tc.image, r.Spark, r.Scala, r.Java, r.Python, tc.spark, tc.scala, tc.java, tc.python)
		}
	}
}
