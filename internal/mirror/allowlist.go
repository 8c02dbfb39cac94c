package mirror

import "strings"

// The portability allow-list: the one place that says which prod confs may
// reach the local spark-defaults. A key reaches it only when it belongs to
// one of these families and no rule in rules.go drops it (a prod path, a
// host, a placeholder, a secret); every other key is dropped with
// notPortableReason, which mirror --print lists.

// portableFamily is a family of confs whose meaning does not depend on the
// prod machines: they change what a job computes or how Spark executes it.
type portableFamily struct {
	prefix string // a key prefix, or an exact key when exact
	exact  bool
	what   string
}

var portableFamilies = []portableFamily{
	// Spark SQL semantics (Delta and Iceberg catalogs and extensions live here too)
	{prefix: "spark.sql.", what: "Spark SQL semantics"},
	// RAPIDS Accelerator behaviour
	{prefix: "spark.rapids.", what: "RAPIDS Accelerator behaviour"},
	{prefix: "spark.plugins", exact: true, what: "RAPIDS Accelerator behaviour"},
	// Delta Lake (its OSS confs are spark.databricks.delta.*)
	{prefix: "spark.databricks.delta.", what: "Delta Lake semantics"},
	{prefix: "spark.delta.", what: "Delta Lake semantics"},
	// execution and memory semantics
	{prefix: "spark.memory.", what: "memory management"},
	{prefix: "spark.executor.memory", exact: true, what: "executor sizing"},
	{prefix: "spark.executor.memoryOverhead", exact: true, what: "executor sizing"},
	{prefix: "spark.executor.memoryOverheadFactor", exact: true, what: "executor sizing"},
	{prefix: "spark.executor.cores", exact: true, what: "executor sizing"},
	{prefix: "spark.executor.instances", exact: true, what: "executor sizing"},
	{prefix: "spark.executor.pyspark.memory", exact: true, what: "executor sizing"},
	{prefix: "spark.executor.resource.gpu.amount", exact: true, what: "GPU scheduling"},
	{prefix: "spark.task.resource.gpu.amount", exact: true, what: "GPU scheduling"},
	{prefix: "spark.task.cpus", exact: true, what: "task scheduling"},
	{prefix: "spark.task.maxFailures", exact: true, what: "task scheduling"},
	{prefix: "spark.driver.memory", exact: true, what: "driver sizing"},
	{prefix: "spark.driver.memoryOverhead", exact: true, what: "driver sizing"},
	{prefix: "spark.driver.cores", exact: true, what: "driver sizing"},
	{prefix: "spark.driver.maxResultSize", exact: true, what: "driver limits"},
	{prefix: "spark.cores.max", exact: true, what: "executor sizing"},
	{prefix: "spark.default.parallelism", exact: true, what: "execution"},
	{prefix: "spark.serializer", what: "serialization"},
	{prefix: "spark.kryo.", what: "serialization"},
	{prefix: "spark.kryoserializer.", what: "serialization"},
	{prefix: "spark.shuffle.", what: "shuffle"}, // the external shuffle service is dropped in rules.go
	{prefix: "spark.reducer.", what: "shuffle"},
	{prefix: "spark.io.compression.", what: "compression"},
	{prefix: "spark.broadcast.", what: "broadcast"},
	{prefix: "spark.rdd.", what: "RDD semantics"},
	{prefix: "spark.checkpoint.compress", exact: true, what: "compression"},
	{prefix: "spark.unsafe.", what: "execution"},
	{prefix: "spark.buffer.", what: "execution"},
	{prefix: "spark.storage.", what: "storage"}, // decommissioning is dropped in rules.go
	{prefix: "spark.cleaner.", what: "execution"},
	{prefix: "spark.locality.wait", what: "scheduling"},
	{prefix: "spark.speculation", what: "scheduling"},
	{prefix: "spark.scheduler.mode", exact: true, what: "scheduling"},
	// barrier execution (TorchDistributor, Horovod): whether a barrier stage
	// with more tasks than free slots waits or fails
	{prefix: "spark.scheduler.barrier.", what: "barrier scheduling"},
	{prefix: "spark.stage.maxConsecutiveAttempts", exact: true, what: "scheduling"},
	{prefix: "spark.excludeOnFailure.", what: "scheduling"},
	{prefix: "spark.network.timeout", exact: true, what: "timeouts"},
	{prefix: "spark.rpc.message.maxSize", exact: true, what: "execution"},
	{prefix: "spark.rpc.askTimeout", exact: true, what: "timeouts"},
	{prefix: "spark.executor.heartbeatInterval", exact: true, what: "timeouts"},
	// what the executors measure of themselves for the UI and event log
	{prefix: "spark.executor.processTreeMetrics.enabled", exact: true, what: "executor metrics"},
	{prefix: "spark.executor.metrics.", what: "executor metrics"},
	{prefix: "spark.files.maxPartitionBytes", exact: true, what: "input splits"},
	{prefix: "spark.files.openCostInBytes", exact: true, what: "input splits"},
	{prefix: "spark.files.ignoreCorruptFiles", exact: true, what: "input semantics"},
	{prefix: "spark.files.ignoreMissingFiles", exact: true, what: "input semantics"},
	{prefix: "spark.python.", what: "PySpark workers"},
	{prefix: "spark.executor.userClassPathFirst", exact: true, what: "class loading"},
	{prefix: "spark.driver.userClassPathFirst", exact: true, what: "class loading"},
	{prefix: "spark.streaming.", what: "streaming semantics"},
	// object store semantics; credentials, endpoints and roles are dropped in rules.go
	{prefix: "spark.hadoop.fs.s3a.", what: "S3A semantics"},
	{prefix: "spark.hadoop.mapreduce.fileoutputcommitter.", what: "output commit semantics"},
	{prefix: "spark.hadoop.parquet.", what: "Parquet semantics"},
	// which files a Hadoop input format reads (input.dir.recursive: the
	// files of subdirectories too, as Hive's partitioned tables need) and
	// how it splits them
	{prefix: "spark.hadoop.mapreduce.input.fileinputformat.", what: "input semantics"},
	// what the driver's console and UI show and keep: the same on any
	// machine (the UI's port, proxy and filters stay dropped in rules.go)
	{prefix: "spark.ui.showConsoleProgress", exact: true, what: uiDisplay},
	{prefix: "spark.ui.consoleProgress.", what: uiDisplay},
	{prefix: "spark.ui.retained", what: uiDisplay},
	{prefix: "spark.ui.timeline.", what: uiDisplay},
	{prefix: "spark.ui.liveUpdate.", what: uiDisplay},
	{prefix: "spark.ui.dagGraph.", what: uiDisplay},
}

const uiDisplay = "console and UI display"

// notPortableReason is why a key outside the allow-list is dropped.
const notPortableReason = "not on devenv's list of portable confs (Spark SQL, execution and memory semantics, RAPIDS, Delta/Iceberg, S3A without credentials); set it in devenv.yaml conf: if the job needs it"

// portableFamilyOf names the family of a portable key, or "".
func portableFamilyOf(key string) string {
	for _, f := range portableFamilies {
		if f.exact && key == f.prefix || !f.exact && strings.HasPrefix(key, f.prefix) {
			return f.what
		}
	}
	return ""
}
