package mirror

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Real public files of each kind (testdata/public/SOURCES.md), each read by
// hand: the facts below are what the file says, written down before the
// test ran. holdout/ files were kept out of writing the rules.

type publicCase struct {
	name, path string
	facts      func(t *testing.T, p *Profile, l Local)
}

// publicHost is the machine the local goldens are sized for: 16 CPUs,
// 64 GiB, one 24 GiB GPU.
var publicHost = Host{CPUs: 16, MemoryMB: 65536, GPUs: 1, GPUMemoryMB: 24576}

// localFor localizes p as the plan does: for the Spark the lock would
// pick (prod's, or the newest when prod does not say).
func localFor(p *Profile) Local {
	h := publicHost
	h.Spark = p.Runtime.Spark
	if h.Spark == "" {
		h.Spark = "3.5.8"
	}
	return p.Localize(h)
}

func dropped(t *testing.T, l Local, key, why string) {
	t.Helper()
	if r, ok := l.Dropped[key]; !ok || !strings.Contains(r, why) {
		t.Errorf("%s: dropped %v with %q, want dropped for %q", key, ok, r, why)
	}
	if _, ok := l.Conf[key]; ok {
		t.Errorf("%s is dropped but still in the local conf", key)
	}
}

func kept(t *testing.T, l Local, key, value string) {
	t.Helper()
	if l.Conf[key] != value || l.Sources[key] != SourceProdValue {
		t.Errorf("%s = %q (%s), want prod's %q kept", key, l.Conf[key], l.Sources[key], value)
	}
}

var publicCases = []publicCase{
	{"rp-sql", "public/rp_sql_eventlog.zstd", func(t *testing.T, p *Profile, l Local) {
		eq(t, "platform", p.Source.Platform, "yarn")
		eq(t, "spark", p.Runtime.Spark, "3.1.1")
		eq(t, "scala", p.Runtime.ScalaFull, "2.12.10")
		eq(t, "java", p.Runtime.JavaFull, "1.8.0_275")
		// two profiles; 5 executors ran under the default one, 4 under profile 1
		eq(t, "profiles", len(p.ResourceProfiles), 2)
		eq(t, "profile 0 executors", p.ResourceProfiles[0].Executors, 5)
		eq(t, "profile 1 executors", p.ResourceProfiles[1].Executors, 4)
		eq(t, "used", p.ResourceProfiles[0].Used, true)
		eq(t, "executor cores", p.Topology.ExecutorCores, 4)
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(20480))
		eq(t, "executor gpus", p.GPU.ExecutorGPUs, 1.0)
		dropped(t, l, "spark.dynamicAllocation.enabled", "dynamic allocation")
		dropped(t, l, "spark.shuffle.service.enabled", "external shuffle service")
		dropped(t, l, "spark.executorEnv.YARN_CONTAINER_RUNTIME_DOCKER_IMAGE", "YARN Docker container runtime")
		dropped(t, l, "spark.sql.hive.metastore.jars", "HDP")
		dropped(t, l, "spark.yarn.queue", "YARN")
		kept(t, l, "spark.sql.orc.impl", "native")
	}},
	{"rp-nosql", "public/rp_nosql_eventlog", func(t *testing.T, p *Profile, l Local) {
		// 2 executors under profile 1, 1 under the default: the shape is profile 1's
		eq(t, "profile 1 used", p.ResourceProfiles[1].Used, true)
		eq(t, "profile 0 used", p.ResourceProfiles[0].Used, false)
		eq(t, "executor cores", p.Topology.ExecutorCores, 2)
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(6144))
		eq(t, "executor gpus", p.GPU.ExecutorGPUs, 2.0)
		eq(t, "task gpu", p.GPU.TaskGPU, 2.0)
		eq(t, "cores provenance", p.Topology.ExecutorCoresProvenance, "eventlog:SparkListenerExecutorAdded (Total Cores, resource profile 1)")
	}},
	{"emr-yarn", "public/join_agg_on_yarn_eventlog.zstd", func(t *testing.T, p *Profile, l Local) {
		eq(t, "platform", p.Source.Platform, "emr")
		eq(t, "spark", p.Runtime.Spark, "3.3.0")
		eq(t, "spark build", p.Runtime.SparkBuild, "3.3.0-amzn-0")
		eq(t, "scala", p.Runtime.ScalaFull, "2.12.15")
		eq(t, "java", p.Runtime.Java, "8")
		eq(t, "executors", p.Topology.Executors, 10)
		eq(t, "executor cores", p.Topology.ExecutorCores, 3)
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(9397))
	}},
	{"databricks-photon", "public/photon_eventlog.zstd", func(t *testing.T, p *Profile, l Local) {
		eq(t, "platform", p.Source.Platform, "databricks")
		eq(t, "cloud", p.Source.Cloud, "azure")
		eq(t, "label", p.Runtime.Label, "13.3.x-photon-scala2.12")
		eq(t, "engine", p.Runtime.Engine, "photon")
		eq(t, "java", p.Runtime.JavaFull, "1.8.0_382")
		dropped(t, l, "spark.databricks.delta.preview.enabled", "Databricks-only") // not read by OSS Delta (issue 33)
		kept(t, l, "spark.hadoop.fs.s3a.fast.upload", "true")                      // S3A semantics
		dropped(t, l, "spark.databricks.passthrough.enabled", "Databricks platform")
		dropped(t, l, "spark.hadoop.fs.s3a.impl", "prod platform")
		dropped(t, l, "spark.executor.extraClassPath", "classpath of the prod machines")
	}},
	{"dataproc-2.2", "public/nds_q72_dataproc_2_2.zstd", func(t *testing.T, p *Profile, l Local) {
		eq(t, "platform", p.Source.Platform, "dataproc")
		eq(t, "spark", p.Runtime.Spark, "3.5.3")
		eq(t, "scala", p.Runtime.ScalaFull, "2.12.18")
		eq(t, "java", p.Runtime.Java, "11")
		eq(t, "executor cores", p.Topology.ExecutorCores, 16)
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(40960))
		eq(t, "overhead", p.ResourceProfiles[0].OverheadMB, int64(10240))
	}},
	{"databricks-aws-tags", "public/platform-databricks-aws", func(t *testing.T, p *Profile, l Local) {
		eq(t, "executors", p.Topology.Executors, 2)
		eq(t, "executor cores", p.Topology.ExecutorCores, 8) // the executors' Total Cores, not the default profile's 1
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(1024))
	}},
	{"local-driver-only", "public/eventlog_driver_only", func(t *testing.T, p *Profile, l Local) {
		eq(t, "platform", p.Source.Platform, "local")
		eq(t, "executors", p.Topology.Executors, 1)
		eq(t, "executor cores", p.Topology.ExecutorCores, 0) // local[*] and no driver event: unknown
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(1024))
	}},
	{"executors-despite-local-master", "public/eventlog_3nodes_12cores_variable_cores", func(t *testing.T, p *Profile, l Local) {
		eq(t, "executors", p.Topology.Executors, 3) // executors on 3 hosts: not a local run
		eq(t, "hosts", p.Topology.Hosts, 3)
		eq(t, "cores provenance", p.Topology.ExecutorCoresProvenance, "eventlog:SparkListenerExecutorAdded (Total Cores, resource profile 0)")
	}},
	{"spark4-scala213-local", "public/eventlog_v2_local-1766844910796/events_1_local-1766844910796", func(t *testing.T, p *Profile, l Local) {
		eq(t, "spark", p.Runtime.Spark, "4.2.0")
		eq(t, "spark build", p.Runtime.SparkBuild, "4.2.0-SNAPSHOT")
		eq(t, "scala", p.Runtime.Scala, "2.13")
		eq(t, "scala full", p.Runtime.ScalaFull, "2.13.18")
		eq(t, "java", p.Runtime.Java, "17")
		eq(t, "executor cores", p.Topology.ExecutorCores, 10) // local[*]: the driver's 10 cores
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(1024))
		kept(t, l, "spark.hadoop.fs.s3a.vectored.read.min.seek.size", "128K")
		dropped(t, l, "spark.jars", "pins them in devenv.lock")
		dropped(t, l, "spark.executor.extraJavaOptions", "JVM options")
		dropped(t, l, "spark.submit.pyFiles", "empty value")
	}},
	{"spark-defaults-spark4-gpu", "public/spark-connect-gpu-spark-defaults.conf", func(t *testing.T, p *Profile, l Local) {
		eq(t, "platform", p.Source.Platform, "standalone")
		eq(t, "executor gpus", p.GPU.ExecutorGPUs, 1.0)
		eq(t, "task gpu", p.GPU.TaskGPU, 0.0625)
		// the spark400 shim is the only statement of prod's Spark: 4.0.0,
		// so a local Spark 4.0.0 keeps it
		eq(t, "spark (from the shim)", p.Runtime.Spark, "4.0.0")
		eq(t, "shuffle manager", l.Conf["spark.shuffle.manager"], "com.nvidia.spark.rapids.spark400.RapidsShuffleManager")
		// a local Spark other than prod's gets its own shim
		h := publicHost
		h.Spark = "3.5.8"
		other := p.Localize(h)
		eq(t, "shuffle manager on 3.5.8", other.Conf["spark.shuffle.manager"], "com.nvidia.spark.rapids.spark358.RapidsShuffleManager")
		if !strings.Contains(other.Sources["spark.shuffle.manager"], "rewritten from prod's com.nvidia.spark.rapids.spark400.RapidsShuffleManager") {
			t.Errorf("shuffle manager source %q", other.Sources["spark.shuffle.manager"])
		}
		kept(t, l, "spark.sql.session.timeZone", "UTC")
		kept(t, l, "spark.driver.maxResultSize", "3g")
		dropped(t, l, "spark.jars", "pins them in devenv.lock")
		dropped(t, l, "spark.local.dir", "scratch")
		dropped(t, l, "spark.executor.resource.gpu.discoveryScript", "discovery script")
	}},
	{"emr7-configurations", "public/emr7-configurations.json", func(t *testing.T, p *Profile, l Local) {
		eq(t, "platform", p.Source.Platform, "emr")
		dropped(t, l, "spark.executor.cores", "placeholder ${executor_cores}")
		dropped(t, l, "spark.task.resource.gpu.amount", "placeholder ${task_gpu_amount}")
		dropped(t, l, "spark.executor.extraLibraryPath", "native library path")
		dropped(t, l, "spark.submit.pyFiles", "/usr/lib/")
		kept(t, l, "spark.sql.adaptive.enabled", "false")
		if w := strings.Join(p.Warnings, "\n"); !strings.Contains(w, "${executor_cores}") {
			t.Errorf("the placeholder is not flagged: %s", w)
		}
	}},
	{"sparkapp-spark4", "public/spark-pi-dynamic-allocation.yaml", func(t *testing.T, p *Profile, l Local) {
		eq(t, "platform", p.Source.Platform, "kubernetes")
		eq(t, "spark", p.Runtime.Spark, "4.0.4")
		eq(t, "executor cores", p.Topology.ExecutorCores, 1)
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(512))
	}},
}

// holdoutCases were checked last, after the rules were written.
var holdoutCases = []publicCase{
	{"holdout-emr6-configurations", "public/holdout/emr6-configurations.json", func(t *testing.T, p *Profile, l Local) {
		dropped(t, l, "spark.executor.cores", "placeholder ${executor_cores}")
		dropped(t, l, "spark.executor.extraLibraryPath", "native library path")
		kept(t, l, "spark.plugins", "com.nvidia.spark.SQLPlugin")
	}},
	{"holdout-sparkapp-python", "public/holdout/spark-pi-python.yaml", func(t *testing.T, p *Profile, l Local) {
		eq(t, "spark", p.Runtime.Spark, "4.0.4")
		eq(t, "python", p.Runtime.Python, "3")
	}},
	{"holdout-multiple-executors", "public/holdout/eventlog_3nodes_12cores_multiple_executors", func(t *testing.T, p *Profile, l Local) {
		// executor 1 is added twice: four executors on three hosts, 12 cores each
		eq(t, "executors", p.Topology.Executors, 4)
		eq(t, "hosts", p.Topology.Hosts, 3)
		eq(t, "executor cores", p.Topology.ExecutorCores, 12)
	}},
	{"holdout-gpu-local", "public/holdout/e2e_gpu_eventlog.zstd", func(t *testing.T, p *Profile, l Local) {
		eq(t, "platform", p.Source.Platform, "local")
		eq(t, "executor cores", p.Topology.ExecutorCores, 12)
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(30720)) // spark.driver.memory 30g
		dropped(t, l, "spark.plugins.internal.conf.com.nvidia.spark.SQLPlugin.spark.rapids.sql.explain", "internal copy")
	}},
	{"holdout-databricks-azure-tags", "public/holdout/platform-databricks-azure", func(t *testing.T, p *Profile, l Local) {
		eq(t, "executor cores", p.Topology.ExecutorCores, 8)
		dropped(t, l, "spark.databricks.clusterUsageTags.clusterId", "Databricks platform")
	}},
}

// TestPublicFiles checks each public file's facts and pins the import and
// the generated local conf (kept, scaled, dropped with reasons) in goldens.
func TestPublicFiles(t *testing.T) {
	for _, tc := range append(append([]publicCase{}, publicCases...), holdoutCases...) {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Import(filepath.Join("testdata", tc.path), Options{Full: true})
			if err != nil {
				t.Fatal(err)
			}
			l := localFor(p)
			tc.facts(t, p, l)
			for k := range l.Conf {
				if _, drop := l.Dropped[k]; drop {
					t.Errorf("%s is both in the local conf and dropped", k)
				}
				if ph := placeholder(l.Conf[k]); ph != "" {
					t.Errorf("%s=%s: an unexpanded placeholder reached the local conf", k, l.Conf[k])
				}
			}
			p.Source.Path = tc.path // goldens do not depend on the checkout's location
			imp, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", "golden", "public-"+tc.name+".json"), append(imp, '\n'))
			loc, err := json.MarshalIndent(l, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", "golden", "public-local-"+tc.name+".json"), append(loc, '\n'))
		})
	}
}
