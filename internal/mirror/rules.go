package mirror

import (
	"regexp"
	"strings"
	"sync"
)

// action is what Localize does with a prod conf key.
type action int

const (
	actKeep action = iota
	actScale
	actDrop
	actSecret
)

// Severity ranks a drift.
type Severity string

// Severities, from most to least important.
const (
	SevBehaviour   Severity = "behaviour"   // results or semantics may differ
	SevPerformance Severity = "performance" // speed or memory may differ
	SevInfo        Severity = "info"        // worth knowing, harmless
)

// scaledKeys are sized for the prod cluster and rescaled to the host.
var scaledKeys = map[string]bool{
	"spark.executor.memory": true, "spark.executor.cores": true, "spark.executor.instances": true,
	"spark.executor.memoryOverhead": true, "spark.driver.memory": true, "spark.driver.cores": true,
	"spark.driver.memoryOverhead": true, "spark.rapids.memory.pinnedPool.size": true,
	"spark.executor.resource.gpu.amount": true, "spark.task.resource.gpu.amount": true,
	"spark.dynamicAllocation.minExecutors": true, "spark.dynamicAllocation.maxExecutors": true,
	"spark.dynamicAllocation.initialExecutors": true, "spark.cores.max": true,
	"spark.memory.offHeap.size": true, "spark.default.parallelism": false,
}

// droppedKeys are exact keys that only make sense on the prod cluster.
var droppedKeys = map[string]string{
	"spark.master":                                "the local environment sets its own master",
	"spark.submit.deployMode":                     "the local environment runs in client mode",
	"spark.app.id":                                "application ids are assigned per run",
	"spark.app.name":                              "application names are per job",
	"spark.app.startTime":                         "recorded per run",
	"spark.app.submitTime":                        "recorded per run",
	"spark.app.initial.jar.urls":                  "recorded per run",
	"spark.driver.host":                           "prod host name",
	"spark.driver.bindAddress":                    "prod network address",
	"spark.driver.appUIAddress":                   "prod UI address",
	"spark.ui.proxyBase":                          "prod UI proxy",
	"spark.executor.id":                           "set by Spark per executor",
	"spark.eventLog.dir":                          "prod event log directory",
	"spark.history.fs.logDirectory":               "prod event log directory",
	"spark.local.dir":                             "prod scratch directories",
	"spark.sql.warehouse.dir":                     "prod warehouse location",
	"spark.executor.resource.gpu.discoveryScript": "devenv generates the local GPU discovery script",
	"spark.worker.resource.gpu.discoveryScript":   "devenv generates the local GPU discovery script",
	"spark.driver.resource.gpu.discoveryScript":   "devenv generates the local GPU discovery script",
	"spark.extraListeners":                        "listeners of the prod platform are not on the local classpath",
	"spark.metrics.conf":                          "prod metrics setup",
	"spark.home":                                  "the prod Spark installation; the local image has its own",
	"spark.repl.class.outputDir":                  "a prod session's REPL class directory",
	"spark.repl.class.uri":                        "a prod session's REPL class server",
	"spark.repl.local.jars":                       "a prod session's REPL jars",
	"spark.app.initial.file.urls":                 "recorded per run",
	"spark.app.initial.archive.urls":              "recorded per run",
	"spark.driver.tempDirectory":                  "prod temp directory",
	"spark.executor.tempDirectory":                "prod temp directory",
	"spark.jars.packages":                         "resolved by devenv lock with their dependencies, pinned in devenv.lock and baked into the image: nothing is left for Ivy to fetch at run time",
	"spark.jars.excludes":                         "applied by devenv lock when it resolved prod's packages",
	"spark.jars.repositories":                     "devenv lock resolves packages through devenv.yaml mirrors.maven",
	"spark.jars.ivy":                              "Ivy is not used: devenv lock resolved prod's packages",
	"spark.jars.ivySettings":                      "Ivy is not used: devenv lock resolved prod's packages",
}

// droppedPrefixes are platform families.
var droppedPrefixes = []struct{ prefix, reason string }{
	{"spark.yarn.", "YARN setting; the local environment does not run YARN"},
	{"spark.kubernetes.", "Kubernetes setting; the local environment runs in Docker"},
	{"spark.databricks.", "Databricks platform setting"},
	{"spark.emr.", "EMR platform setting"},
	{"spark.dataproc.", "Dataproc platform setting"},
	{"spark.org.apache.hadoop.yarn.", "YARN proxy setting"},
	{"spark.history.", "history server setting"},
	{"spark.eventLog.", "event logging is set up by devenv"},
	{"spark.ui.", "UI setting of the prod cluster"},
	{"spark.blockManager.port", "fixed port of the prod network"},
	{"spark.hadoop.fs.", "cloud storage setting of prod"},
	{"spark.metrics.", "prod metrics sink"},
	{"spark.sql.streaming.ui.", "UI setting of the prod cluster"},
}

// keyRules drop keys by a fragment of their name.
var keyRules = []struct{ fragment, reason string }{
	{"databricks", "Databricks platform setting"},
	{"tmpdir", "prod temp directory"},
	{"tempdir", "prod temp directory"},
	{"scratchdir", "prod temp directory"},
	{".host", "prod host name"},
	{"bindaddress", "prod network address"},
	{"advertiseaddress", "prod network address"},
}

// placeholderRe finds template placeholders: ${name} that Spark's own
// substitution (${env:..}, ${system:..}, ${spark.key}) does not resolve,
// and {{name}} (Jinja, Databricks templates).
var placeholderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([^}:]*)\}|\{\{[^}]*\}\}`) })

// placeholder returns the first unresolved template placeholder in value.
func placeholder(value string) string {
	for _, m := range placeholderRe().FindAllStringSubmatch(value, -1) {
		if strings.HasPrefix(m[0], "${") && strings.HasPrefix(m[1], "spark.") {
			continue // Spark substitutes ${spark.other.key}
		}
		return m[0]
	}
	return ""
}

// prodHostRe finds an IPv4 address or a cloud-internal host name.
var prodHostRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(\d{1,3}\.){3}\d{1,3}\b|[a-z0-9-]+\.(ec2|compute)\.internal\b|\.c\.[a-z0-9-]+\.internal\b`)
})

// prodPaths start values that point into prod-only storage.
var prodPaths = []string{"dbfs:/", "s3://", "s3a://", "s3n://", "hdfs://", "gs://", "abfss://", "abfs://",
	"wasbs://", "wasb://", "adl://", "/databricks/", "/dbfs/", "/local_disk0", "/usr/lib/", "/usr/share/aws/", "/usr/local/share/google/",
	"/mnt/", "/etc/spark/", "/etc/hadoop/", "/home/hadoop/", "/var/lib/spark", "/var/log/spark", "/emr/", "/opt/bitnami/"}

// platformClasses mark values naming classes only on a platform.
var platformClasses = []string{"com.databricks.", "databricks.", "rapids.daemon_databricks", "com.google.cloud.spark.performance",
	"com.google.cloud.hadoop.", "com.amazonaws.emr", "com.amazon.emr", "com.amazon.ws.emr", "com.amazonaws.services.emr", "EmrFileSystem"}

// behaviourPrefixes are kept as they are and drift there changes results.
var behaviourPrefixes = []string{"spark.sql.", "spark.rapids.", "spark.serializer", "spark.kryo", "spark.plugins",
	"spark.shuffle.manager", "spark.sql.ansi.enabled", "spark.python.", "spark.files.", "spark.jars"}

// performanceKeys are kept but only change speed or memory.
var performanceKeys = map[string]bool{
	"spark.rapids.sql.concurrentGpuTasks": true, "spark.rapids.sql.batchSizeBytes": true,
	"spark.sql.files.maxPartitionBytes": true, "spark.rapids.sql.reader.batchSizeBytes": true,
	"spark.rapids.sql.multiThreadedRead.numThreads": true, "spark.sql.adaptive.advisoryPartitionSizeInBytes": true,
	"spark.locality.wait": true, "spark.rapids.shuffle.multiThreaded.writer.threads": true,
	"spark.rapids.shuffle.multiThreaded.reader.threads": true,
}

// classify says what Localize (and so spark-defaults, mirror --print and
// diff) does with a prod conf key and why: the one rule for portability.
func classify(key, value string) (action, string) {
	if isSecret(key, value) {
		return actSecret, ""
	}
	if reason := dropReason(key, value); reason != "" {
		return actDrop, reason
	}
	if strings.HasPrefix(key, "spark.rapids.memory.") && strings.HasSuffix(key, ".size") || scaledKeys[key] {
		return actScale, ""
	}
	return actKeep, ""
}

// placeholderReason starts the reason of a key dropped for a placeholder;
// such drops are also warnings.
const placeholderReason = "unresolved template placeholder "

// dropReason says why a key is not portable, or "" when it is.
func dropReason(key, value string) string {
	if !strings.HasPrefix(key, "spark.") {
		return "not a Spark conf: spark-defaults.conf only passes spark.* keys"
	}
	if reason, ok := droppedKeys[key]; ok {
		return reason
	}
	for _, d := range droppedPrefixes {
		if strings.HasPrefix(key, d.prefix) {
			return d.reason
		}
	}
	if strings.HasSuffix(key, ".port") || strings.HasSuffix(key, "Port") {
		return "port of the prod network"
	}
	lk := strings.ToLower(key)
	for _, r := range keyRules {
		if strings.Contains(lk, r.fragment) && (r.fragment != ".host" || strings.HasSuffix(lk, ".host") || strings.HasSuffix(lk, ".hostname")) {
			return r.reason
		}
	}
	return valueDropReason(value)
}

// valueDropReason drops values naming prod paths, hosts, platform classes
// or template placeholders.
func valueDropReason(value string) string {
	if ph := placeholder(value); ph != "" {
		return placeholderReason + ph + ": the template was not filled in; set the value in devenv.yaml conf: if the job needs it"
	}
	if p := prodPath(value); p != "" {
		return "points to a prod-only path (" + p + ")"
	}
	if h := prodHostRe().FindString(value); h != "" {
		return "names a prod host (" + h + ")"
	}
	for _, c := range platformClasses {
		if strings.Contains(value, c) {
			return "names a class that exists only on the prod platform (" + c + "...)"
		}
	}
	return ""
}

// prodPath returns the prod-only path prefix a value uses, or "".
func prodPath(value string) string {
	for _, pp := range prodPaths {
		if strings.HasPrefix(value, pp) {
			return pp
		}
		for _, sep := range []string{",", " ", "=", ":"} {
			if strings.Contains(value, sep+pp) {
				return pp
			}
		}
	}
	return ""
}

// severityOf ranks a drift in key.
func severityOf(key string) Severity {
	if performanceKeys[key] || scaledKeys[key] || strings.HasPrefix(key, "spark.rapids.memory.") {
		return SevPerformance
	}
	for _, p := range behaviourPrefixes {
		if strings.HasPrefix(key, p) {
			return SevBehaviour
		}
	}
	return SevInfo
}
