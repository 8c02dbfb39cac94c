package mirror

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/sparkconf"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		key, value string
		want       action
		reason     string // substring of the reason
	}{
		{"spark.sql.shuffle.partitions", "400", actKeep, ""},
		{"spark.sql.adaptive.enabled", "true", actKeep, ""},
		{"spark.sql.ansi.enabled", "true", actKeep, ""},
		{"spark.sql.session.timeZone", "UTC", actKeep, ""},
		{"spark.serializer", "org.apache.spark.serializer.KryoSerializer", actKeep, ""},
		{"spark.rapids.sql.concurrentGpuTasks", "2", actKeep, ""},
		{"spark.executor.memory", "16g", actScale, ""},
		{"spark.executor.cores", "8", actScale, ""},
		{"spark.executor.instances", "10", actScale, ""},
		{"spark.executor.memoryOverhead", "4g", actScale, ""},
		{"spark.driver.memory", "8g", actScale, ""},
		{"spark.rapids.memory.pinnedPool.size", "4g", actScale, ""},
		{"spark.master", "yarn", actDrop, "master"},
		{"spark.submit.deployMode", "cluster", actDrop, "client"},
		{"spark.driver.host", "10.0.0.1", actDrop, "host"},
		{"spark.driver.port", "40000", actDrop, "port"},
		{"spark.app.id", "application_1_2", actDrop, "per run"},
		{"spark.yarn.queue", "etl", actDrop, "YARN"},
		{"spark.kubernetes.namespace", "prod", actDrop, "Kubernetes"},
		// as OCI's Spark setups write it for the OCI HDFS connector
		{"spark.sql.hive.metastore.sharedPrefixes", "shaded.oracle,com.oracle.bmc", actDrop, "prod platform"},
		{"spark.sql.hive.metastore.sharedPrefixes", "com.mysql.jdbc", actKeep, ""},
		// a catalog only AWS Glue serves
		{"spark.sql.catalog.glue.catalog-impl", "org.apache.iceberg.aws.glue.GlueCatalog", actDrop, "prod platform"},
		{"spark.sql.catalog.local.catalog-impl", "org.apache.iceberg.hadoop.HadoopCatalog", actKeep, ""},
		{"spark.databricks.delta.preview.enabled", "true", actDrop, databricksOnlyReason}, // Databricks-only (issue 33)
		{"spark.databricks.delta.optimizeWrite.enabled", "true", actKeep, ""},             // Delta's own confs are spark.databricks.delta.*
		{"spark.databricks.io.cache.enabled", "true", actDrop, "Databricks"},
		{"spark.emr.default.executor.memory", "4g", actDrop, "EMR"},
		{"spark.dataproc.sql.joinConditionReorder.enabled", "true", actDrop, "Dataproc"},
		{"spark.eventLog.dir", "hdfs:///logs", actDrop, "event log"},
		{"spark.jars", "dbfs:/FileStore/jars/a.jar", actDrop, "pins them in devenv.lock"},
		{"spark.jars.packages", "io.delta:delta-spark_2.12:3.1.0", actDrop, "nothing is left for Ivy"},
		{"spark.executorEnv.PYTHONPATH", "/x:/databricks/jars/r.jar", actDrop, "prod's Python paths"},
		{"spark.pyspark.python", "/databricks/python3/bin/python3", actDrop, "prod's Python paths"},
		{"spark.extraListeners", "com.google.cloud.spark.performance.DataprocMetricsListener", actDrop, "listeners"},
		{"spark.ssl.keyPassword", "x", actSecret, ""},
		{"spark.hadoop.fs.s3a.access.key", "AKIA", actSecret, ""},
		{"spark.my.conf", "{{secrets/scope/key}}", actSecret, ""},
		{"spark.driver.extraJavaOptions", "-Dapi.token=abc", actSecret, ""},
		{"spark.hadoop.fs.s3a.aws.credentials.provider", "com.amazonaws.auth.InstanceProfileCredentialsProvider", actDrop, "S3A credentials"},
		{"spark.authenticate.secret.enabled", "true", actDrop, "security setup"},
		{"spark.hadoop.fs.s3a.path.style.access", "true", actKeep, ""},
		{"spark.hadoop.fs.s3a.endpoint", "s3.us-west-2.amazonaws.com", actDrop, "S3A credentials, endpoint"},
		{"spark.dynamicAllocation.enabled", "true", actDrop, "dynamic allocation"},
		{"spark.dynamicAllocation.enabled", "false", actKeep, ""},
		{"spark.dynamicAllocation.maxExecutors", "4", actDrop, "dynamic allocation"},
		{"spark.sql.hive.metastore.version", "3.1.3", actDrop, "prod's Hive metastore"},
		{"spark.sql.hive.metastore.jars", "builtin", actKeep, ""},
		{"spark.executor.processTreeMetrics.enabled", "true", actKeep, ""},
		{"spark.shuffle.service.enabled", "true", actDrop, "external shuffle service"},
		{"spark.shuffle.manager", "com.nvidia.spark.rapids.spark321db.RapidsShuffleManager", actKeep, ""},
		{"spark.task.cpus", "2", actKeep, ""}, // spark-defaults lowers it to the local executor cores
		{"spark.my.conf", "x", actDrop, "not on devenv's list"},
		{"spark.my.conf", "", actDrop, "empty value"},
		{"spark.sql.files.maxPartitionBytes", "", actDrop, "empty value"},
		{"spark.sql.sources.useV1SourceList", "", actKeep, ""},
		{"spark.shuffle.sort.io.plugin.class", "org.apache.spark.shuffle.KubernetesLocalDiskShuffleDataIO", actDrop, "Kubernetes-only shuffle IO plugin"},
		{"spark.shuffle.sort.io.plugin.class", "org.apache.spark.shuffle.sort.io.LocalDiskShuffleDataIO", actKeep, ""},
		{"spark.rapids.shims-provider-override", "com.nvidia.spark.rapids.shims.spark351.SparkShimServiceProvider", actDrop, "shim of prod's Spark"},
		{"spark.rapids.sql.concurrentGpuTasks", "2", actKeep, ""},
		{"spark.executorEnv.NCCL_SOCKET_IFNAME", "eth0", actDrop, ""},
		{"spark.rapids.shuffle.ucx.interfaceName", "ib0", actDrop, "network interface name"},
		{"spark.executor.extraJavaOptions", "-XX:+UseG1GC", actDrop, "JVM options of the prod machines"},
		{"spark.sql.warehouse.dir", "file:/Users/alice/warehouse", actDrop, "warehouse"},
		{"spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog", actKeep, ""},
		{"spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension", actKeep, ""},
		{"spark.sql.catalog.ice.uri", "thrift://metastore.prod:9083", actDrop, "prod host (metastore.prod)"},
		{"spark.sql.hive.metastore.jars", "/usr/hdp/current/spark2-client/standalone-metastore/*", actDrop, "HDP"},
		{"spark.sql.custom.path", "local:///opt/spark/work-dir/x.py", actDrop, "a prod image"},
		{"spark.sql.custom.path", "$SPARK_HOME/conf/x", actDrop, "placeholder $SPARK_HOME"},
	}
	for _, tc := range cases {
		got, reason := classify(tc.key, tc.value)
		if got != tc.want || !strings.Contains(reason, tc.reason) {
			t.Errorf("classify(%s=%s) = %v %q, want %v with %q", tc.key, tc.value, got, reason, tc.want, tc.reason)
		}
	}
}

func gpuProfile() *Profile {
	p := newProfile("test", "test")
	for k, v := range map[string]string{
		"spark.executor.cores": "16", "spark.executor.memory": "64g", "spark.executor.instances": "8",
		"spark.executor.memoryOverhead": "16g", "spark.executor.resource.gpu.amount": "1",
		"spark.task.resource.gpu.amount": "0.0625", "spark.rapids.memory.pinnedPool.size": "8g",
		"spark.driver.memory": "32g", "spark.sql.shuffle.partitions": "800", "spark.master": "yarn",
		"spark.ssl.keyStorePassword": "pw", "spark.dynamicAllocation.maxExecutors": "20",
	} {
		p.addConf(k, v, "test")
	}
	p.deriveFromConf()
	return p
}

func TestLocalizeScales(t *testing.T) {
	cases := []struct {
		name string
		host Host
		want map[string]string
	}{
		{"laptop one gpu", Host{CPUs: 8, MemoryMB: 32768, GPUs: 1, GPUMemoryMB: 16384}, map[string]string{
			"spark.executor.instances": "1", "spark.executor.cores": "7", "spark.executor.resource.gpu.amount": "1",
			// prod: 16 cores x 1/16 GPU fills the GPU; 7 cores keep it full.
			"spark.task.resource.gpu.amount":       "0.1429",
			"spark.driver.memory":                  "4g",
			"spark.sql.shuffle.partitions":         "800",
			"spark.dynamicAllocation.maxExecutors": "", // dropped: no dynamic allocation locally
		}},
		{"workstation two gpus", Host{CPUs: 64, MemoryMB: 262144, GPUs: 2, GPUMemoryMB: 49152}, map[string]string{
			"spark.executor.instances": "2", "spark.executor.cores": "16", "spark.executor.memory": "64g",
			"spark.executor.memoryOverhead": "16g", "spark.task.resource.gpu.amount": "0.0625",
			"spark.rapids.memory.pinnedPool.size": "8g", "spark.cores.max": "",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := gpuProfile().Localize(tc.host)
			for k, v := range tc.want {
				if l.Conf[k] != v {
					t.Errorf("%s = %q, want %q (source %q)", k, l.Conf[k], v, l.Sources[k])
				}
			}
			if _, ok := l.Dropped["spark.master"]; !ok {
				t.Errorf("spark.master not dropped")
			}
			if len(l.Redacted) != 1 || l.Redacted[0] != "spark.ssl.keyStorePassword" {
				t.Errorf("redacted = %v", l.Redacted)
			}
			checkFits(t, l, tc.host)
		})
	}
}

// TestLocalizeKeepsAPoolOfTheSameShape: prod's 6-core 20g executors are
// 20478 MiB once memory is spread per core; a RAPIDS pool scaled by that
// ratio is still prod's 2g, not 2047m (as KubedAI's benchmark-gpu.yaml
// read before the ratio was rounded to the nearest MiB).
func TestLocalizeKeepsAPoolOfTheSameShape(t *testing.T) {
	p := newProfile("test", "test")
	for k, v := range map[string]string{"spark.executor.cores": "6", "spark.executor.memory": "20g",
		"spark.executor.instances": "2", "spark.rapids.memory.pinnedPool.size": "2g"} {
		p.addConf(k, v, "test")
	}
	p.deriveFromConf()
	l := p.Localize(Host{CPUs: 64, MemoryMB: 262144, GPUs: 2, GPUMemoryMB: 49152})
	if got := l.Conf["spark.rapids.memory.pinnedPool.size"]; got != "2g" || l.Sources["spark.rapids.memory.pinnedPool.size"] != SourceProdValue {
		t.Errorf("pinnedPool.size = %q (%s), want prod's 2g", got, l.Sources["spark.rapids.memory.pinnedPool.size"])
	}
}

// checkFits asserts the localized executors fit the host and keep memory
// per core within prod's.
func checkFits(t *testing.T, l Local, h Host) {
	t.Helper()
	n := atoi(l.Conf["spark.executor.instances"])
	cores := atoi(l.Conf["spark.executor.cores"])
	mem, _ := parseSizeMB(l.Conf["spark.executor.memory"], "m")
	over, _ := parseSizeMB(l.Conf["spark.executor.memoryOverhead"], "m")
	if n*cores > h.CPUs {
		t.Errorf("%d executors x %d cores exceed %d CPUs", n, cores, h.CPUs)
	}
	if int64(n)*(mem+over) > h.MemoryMB {
		t.Errorf("%d executors x %d MB exceed %d MB", n, mem+over, h.MemoryMB)
	}
	if mem/int64(max(cores, 1)) > 4096 {
		t.Errorf("memory per core %d MB exceeds prod's 4096", mem/int64(cores))
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestLocalizeNoGPU(t *testing.T) {
	l := gpuProfile().Localize(Host{CPUs: 4, MemoryMB: 8192})
	for _, k := range []string{"spark.executor.resource.gpu.amount", "spark.task.resource.gpu.amount"} {
		if _, ok := l.Dropped[k]; !ok {
			t.Errorf("%s kept on a host without GPU", k)
		}
	}
	if len(l.Warnings) == 0 {
		t.Errorf("no warning about CPU mode")
	}
	checkFits(t, l, Host{CPUs: 4, MemoryMB: 8192})
}

// TestLocalizeGolden pins Localize on real and written profiles.
func TestLocalizeGolden(t *testing.T) {
	host := Host{CPUs: 16, MemoryMB: 65536, GPUs: 1, GPUMemoryMB: 24576}
	for _, name := range []string{"written/databricks-gpu-job.json", "real/eventlog_4nodes_8cores_dynamic_alloc.zstd", "real/dataproc-cpu-00.yaml", "written/spark-submit.sh"} {
		t.Run(name, func(t *testing.T) {
			p, err := Import(filepath.Join("testdata", name), Options{})
			if err != nil {
				t.Fatal(err)
			}
			out, _ := json.MarshalIndent(p.Localize(host), "", "  ")
			checkGolden(t, filepath.Join("testdata", "golden", "local-"+strings.ReplaceAll(filepath.Base(name), ".", "_")+".json"), append(out, '\n'))
		})
	}
}

// TestPortableIsWhatLocalizeApplies: mirror --print's kept, scaled,
// dropped and redacted are exactly what Localize writes for a GPU host.
func TestPortableIsWhatLocalizeApplies(t *testing.T) {
	for _, tc := range importCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Import(filepath.Join("testdata", tc.path), Options{Format: tc.format, Full: tc.full})
			if err != nil {
				t.Fatal(err)
			}
			pt := *p.Portability
			l := p.Localize(Host{CPUs: 16, MemoryMB: 64 << 10, GPUs: 2, GPUMemoryMB: 80 << 10})
			want := append(append(append([]string{}, pt.Kept...), pt.Scaled...), pt.SizedHere...)
			sort.Strings(want)
			eq(t, "conf keys", strings.Join(slices.Sorted(maps.Keys(l.Conf)), " "), strings.Join(want, " "))
			eq(t, "dropped", len(l.Dropped), len(pt.Dropped))
			eq(t, "redacted", strings.Join(l.Redacted, " "), strings.Join(pt.Redacted, " "))
		})
	}
}

func TestPortabilityRules(t *testing.T) {
	cases := []struct{ key, value, want string }{
		{"spark.driver.tempDirectory", "/local_disk0/tmp", "temp directory"},
		{"spark.executor.extraClassPath", "/databricks/spark/dbconf/log4j/executor:/databricks/jars/*", "classpath of the prod machines"},
		{"spark.driver.extraClassPath", "/usr/lib/spark/jars/x.jar", "classpath of the prod machines"},
		{"spark.repl.class.outputDir", "/local_disk0/tmp/repl/spark-1", "REPL"},
		{"spark.driver.host", "10.59.242.167", "host"},
		{"spark.app.id", "app-20221221223542-0001", "per run"},
		{"spark.sql.custom.dir", "/tmp/x,/local_disk0/spark", "prod-only path"},
		{"spark.history.fs.logDirectory", "dbfs:/logs", "event log directory"},
		{"spark.history.ui.port", "18080", "history server"},
		{"spark.metrics.conf.*.sink.ganglia.class", "org.apache.spark.metrics.sink.GangliaSink", "metrics"},
		{"spark.executor.cores", "${executor_cores}", "placeholder ${executor_cores}"},
		{"spark.sql.shuffle.partitions", "{{ shuffle_partitions }}", "placeholder"},
		{"spark.hadoop.fs.s3.impl", "shaded.databricks.org.apache.hadoop.fs.s3a.S3AFileSystem", "cloud storage"},
		{"spark.hadoop.mapred.output.committer.class", "com.databricks.backend.daemon.data.client.DirectOutputCommitter", "prod platform"},
		{"spark.hadoop.databricks.s3.create.deleteUnnecessaryFakeDirectories", "false", "Databricks"},
		{"eventLog.rolloverIntervalSeconds", "3600", "not a Spark conf"},
		{"spark.repl.class.uri", "spark://10.59.242.167:45293/classes", "REPL"},
		{"spark.sql.adaptive.coalescePartitions.initialPartitionNum", "spark://ip-10-0-0-1.ec2.internal:7077", "prod host"},
		{"spark.sql.custom.value", "-Dx=${spark.app.name}", ""}, // Spark substitutes ${spark.*}
		{"spark.sql.shuffle.partitions", "200", ""},
		{"spark.rapids.sql.enabled", "true", ""},
	}
	for _, tc := range cases {
		act, why := classify(tc.key, tc.value)
		if tc.want == "" {
			if act == actDrop || act == actSecret {
				t.Errorf("%s=%s dropped: %s", tc.key, tc.value, why)
			}
			continue
		}
		if act != actDrop || !strings.Contains(why, tc.want) {
			t.Errorf("%s=%s: action %v %q, want dropped for %q", tc.key, tc.value, act, why, tc.want)
		}
	}
}

// TestPortableIsWhatLandsInSparkDefaults: the keys mirror --print counts
// as kept or scaled are exactly the keys whose value in the generated
// spark-defaults comes from prod; the sized-here keys are devenv's own.
func TestPortableIsWhatLandsInSparkDefaults(t *testing.T) {
	hw := sparkconf.Hardware{CPUs: 16, MemoryBytes: 64 << 30, GPUs: 2, GPUMemoryBytes: 80 << 30, AllocFraction: 1}
	for _, tc := range importCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Import(filepath.Join("testdata", tc.path), Options{Format: tc.format, Full: tc.full})
			if err != nil {
				t.Fatal(err)
			}
			l := p.Localize(Host{CPUs: hw.CPUs, MemoryMB: hw.MemoryBytes >> 20, GPUs: hw.GPUs, GPUMemoryMB: hw.GPUMemoryBytes >> 20})
			c, err := sparkconf.Generate(sparkconf.Input{Spark: "3.5.1", Scala: "2.12", Rapids: "25.08.0", Name: "spark", Hardware: hw,
				DiscoveryScript: "/opt/devenv/getGpusResources.sh", Mirrored: []sparkconf.Layer{{Source: "prod", Conf: l.Conf}}})
			if err != nil {
				t.Fatal(err)
			}
			var fromProd []string
			for _, e := range c.Explain() {
				if e.Source == sparkconf.SourceMirror && !e.Unset {
					fromProd = append(fromProd, e.Key)
				}
			}
			pt := p.Portability
			want := append(append([]string{}, pt.Kept...), pt.Scaled...)
			sort.Strings(want)
			sort.Strings(fromProd)
			eq(t, "keys from prod in spark-defaults", strings.Join(fromProd, " "), strings.Join(want, " "))
		})
	}
}
