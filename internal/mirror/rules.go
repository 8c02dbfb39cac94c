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
	"spark.cores.max": true, "spark.memory.offHeap.size": true,
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
	"spark.sql.hive.metastore.version":            "the version of prod's Hive metastore, whose client jars only prod has; the local image talks to its own metastore with Spark's built-in Hive client",
	"spark.rapids.shims-provider-override":        "names the shim of prod's Spark build; the RAPIDS jar picks the local Spark's shim itself",
	"spark.rapids.force.caller.classloader":       "a class-loading workaround for prod's Spark build; the local image has the RAPIDS jar on Spark's own classpath",
}

// kubernetesShuffleIOReason is why Spark on Kubernetes' shuffle IO plugin
// is dropped: it requires spark.kubernetes.driver.reusePersistentVolumeClaim
// ("Ephemeral PVCs are required", KubernetesLocalDiskShuffleDataIO in
// Spark's resource-managers/kubernetes), which the local conf drops with
// every spark.kubernetes.* key, so Spark would stop at start-up.
const kubernetesShuffleIOReason = "Kubernetes-only shuffle IO plugin: it recovers shuffle files from the executors' reused PVCs and requires " +
	"spark.kubernetes.driver.reusePersistentVolumeClaim; the local executors use Spark's own local disk shuffle IO"

// emptyMeansNone are list confs whose empty value is a setting (no
// source on the V1 path), not a missing one: kept as prod has them.
var emptyMeansNone = map[string]bool{
	"spark.sql.sources.useV1SourceList": true,
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
	{"spark.plugins.internal.conf.", "Spark's internal copy of a plugin's conf; the plugin's own key is mirrored"},
	{"spark.dynamicAllocation.", "dynamic allocation of the prod cluster manager; the local environment runs a fixed set of executors sized for this machine"},
	{"spark.shuffle.service.", "the prod cluster's external shuffle service; local executors serve their own shuffle files"},
	{"spark.decommission.", "node decommissioning of the prod cluster manager"},
	{"spark.storage.decommission.", "node decommissioning of the prod cluster manager"},
	{"spark.mesos.", "Mesos setting; the local environment runs in Docker"},
	{"spark.deploy.", "standalone cluster manager setting of prod; devenv runs its own"},
	{"spark.worker.", "standalone worker setting of prod; devenv runs its own workers"},
	{"spark.executorEnv.YARN_CONTAINER_RUNTIME_", "YARN Docker container runtime setting"},
	{"spark.pyspark.", "prod's Python paths; the image has its own Python (devenv.lock pins its version)"},
	{"spark.executorEnv.PYSPARK_", "prod's Python paths; the image has its own Python (devenv.lock pins its version)"},
	{"spark.executorEnv.PYTHONPATH", "prod's Python paths; the image has its own Python (devenv.lock pins its version)"},
	{"spark.executorEnv.", "environment of the prod executors; set what the job needs in devenv.yaml env:"},
	{"spark.driverEnv.", "environment of the prod driver; set what the job needs in devenv.yaml env:"},
	{"spark.jars", "prod's dependencies: devenv pins them in devenv.lock and bakes them into the image; nothing is left for Ivy to fetch at run time"},
	{"spark.authenticate", "security setup of the prod cluster"},
	{"spark.network.crypto.", "security setup of the prod cluster"},
	{"spark.io.encryption.", "security setup of the prod cluster"},
	{"spark.ssl.", "security setup of the prod cluster"},
	{"spark.acls.", "access control of the prod cluster"},
	{"spark.admin.acls", "access control of the prod cluster"},
	{"spark.modify.acls", "access control of the prod cluster"},
	{"spark.view.acls", "access control of the prod cluster"},
}

// classpathKeys hold the prod machines' classpath or JVM options.
var classpathKeys = map[string]string{
	"spark.driver.extraClassPath":       "classpath of the prod machines; the image has the RAPIDS jar and the locked jars",
	"spark.executor.extraClassPath":     "classpath of the prod machines; the image has the RAPIDS jar and the locked jars",
	"spark.driver.extraLibraryPath":     "native library path of the prod machines",
	"spark.executor.extraLibraryPath":   "native library path of the prod machines",
	"spark.driver.defaultJavaOptions":   "JVM options of the prod machines (agents, log configuration files, GC tuned for prod's heap); set what the job needs in conf: in devenv.yaml",
	"spark.executor.defaultJavaOptions": "JVM options of the prod machines (agents, log configuration files, GC tuned for prod's heap); set what the job needs in conf: in devenv.yaml",
	"spark.driver.extraJavaOptions":     "JVM options of the prod machines (agents, log configuration files, GC tuned for prod's heap); set what the job needs in conf: in devenv.yaml",
	"spark.executor.extraJavaOptions":   "JVM options of the prod machines (agents, log configuration files, GC tuned for prod's heap); set what the job needs in conf: in devenv.yaml",
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
	{"ifname", "network interface name of the prod machines"},
	{"net_devices", "network interface name of the prod machines"},
	{"interfacename", "network interface name of the prod machines"},
	{"networkinterface", "network interface name of the prod machines"},
}

// s3aProdOnly are S3A settings that name prod's credentials, endpoints or
// roles rather than S3A's semantics.
var s3aProdOnly = []string{"credentials.provider", "assumed.role", "endpoint", "signing", "security.credential",
	"delegation", "server-side-encryption", "encryption.key", "region", "access.point"}

// placeholderRe finds template placeholders: ${name} that Spark's own
// substitution (${env:..}, ${system:..}, ${spark.key}) does not resolve,
// and {{name}} (Jinja, Databricks templates).
var placeholderRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([^}:]*)\}|\{\{[^}]*\}\}|\$[A-Za-z_][A-Za-z0-9_]*`)
})

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
	"com.google.cloud.hadoop.", "com.amazonaws.emr", "com.amazon.emr", "com.amazon.ws.emr", "com.amazonaws.services.emr", "EmrFileSystem",
	// Oracle Cloud's HDFS connector (oracle/oci-hdfs-connector), which OCI's
	// images share with the Hive metastore client
	"com.oracle.bmc", "shaded.oracle",
	// Iceberg's catalog on AWS Glue: a catalog only AWS serves
	"org.apache.iceberg.aws.glue."}

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

// dropReason says why a key is not portable, or "" when it is: first the
// keys and values that only make sense on the prod machines, then the
// allow-list (allowlist.go).
func dropReason(key, value string) string {
	if !strings.HasPrefix(key, "spark.") {
		return "not a Spark conf: spark-defaults.conf only passes spark.* keys"
	}
	if key == "spark.dynamicAllocation.enabled" && strings.EqualFold(strings.TrimSpace(value), "false") {
		return "" // what the local environment does anyway: kept, it says so
	}
	if reason := keyDropReason(key); reason != "" {
		return reason
	}
	if key == "spark.shuffle.sort.io.plugin.class" && strings.Contains(value, ".Kubernetes") {
		return kubernetesShuffleIOReason
	}
	if reason := valueDropReason(value); reason != "" && !(emptyMeansNone[key] && strings.TrimSpace(value) == "") {
		return reason
	}
	if portableFamilyOf(key) == "" {
		return notPortableReason
	}
	return ""
}

// keyDropReason drops keys by name: per-run keys, platform families, the
// cluster manager, ports, hosts and interfaces.
func keyDropReason(key string) string {
	if reason, ok := droppedKeys[key]; ok {
		return reason
	}
	if reason, ok := classpathKeys[key]; ok {
		return reason
	}
	lk := strings.ToLower(key)
	switch portableFamilyOf(key) {
	case "Delta Lake semantics":
		if databricksOnlyKey(key) {
			return databricksOnlyReason
		}
		return ""
	case uiDisplay:
		return ""
	case "S3A semantics":
		for _, f := range s3aProdOnly {
			if strings.Contains(lk, f) {
				return "S3A credentials, endpoint or role of prod (S3A semantics are kept)"
			}
		}
		return ""
	}
	for _, d := range droppedPrefixes {
		if strings.HasPrefix(key, d.prefix) {
			return d.reason
		}
	}
	if strings.HasSuffix(key, ".port") || strings.HasSuffix(key, "Port") {
		return "port of the prod network"
	}
	for _, r := range keyRules {
		if strings.Contains(lk, r.fragment) && (r.fragment != ".host" || strings.HasSuffix(lk, ".host") || strings.HasSuffix(lk, ".hostname")) {
			return r.reason
		}
	}
	return ""
}

// valueDropReason drops values naming prod paths, hosts, platform classes
// or template placeholders, and empty values.
func valueDropReason(value string) string {
	v := strings.TrimSpace(value)
	if v == "" {
		return "empty value: Spark would read it as set; the local default applies"
	}
	if ph := placeholder(v); ph != "" {
		return placeholderReason + ph + ": the template was not filled in; set the value in devenv.yaml conf: if the job needs it"
	}
	if p := prodPath(v); p != "" {
		return "points to a prod-only path (" + p + ")"
	}
	if p := machinePath(v); p != "" {
		return p
	}
	if h := prodHost(v); h != "" {
		return "names a prod host (" + h + ")"
	}
	for _, c := range platformClasses {
		if strings.Contains(v, c) {
			return "names a class that exists only on the prod platform (" + c + "...)"
		}
	}
	return ""
}

// machinePaths name whose machines an absolute path belongs to.
var machinePaths = []struct{ prefix, whose string }{
	{"/usr/hdp/", "HDP"}, {"/opt/cloudera/", "Cloudera"}, {"/databricks/", "Databricks"}, {"/dbfs/", "Databricks"},
	{"/local_disk0", "Databricks"}, {"/usr/lib/spark", "EMR or Dataproc"}, {"/usr/share/aws/", "EMR"}, {"/emr/", "EMR"},
	{"/usr/local/share/google/", "Dataproc"}, {"/home/", "a home directory"}, {"/Users/", "a home directory"},
	{"/root/", "a home directory"}, {"/opt/", "a prod image"},
}

// machinePath says why a value holding an absolute path of the prod
// machines (or a local:// or file: URI) is dropped, or "".
func machinePath(v string) string {
	for _, field := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '=' || r == ';' }) {
		p := field
		for _, scheme := range []string{"local://", "file://", "file:"} {
			p = strings.TrimPrefix(p, scheme)
		}
		if !strings.HasPrefix(p, "/") || len(p) < 2 {
			continue
		}
		for _, m := range machinePaths {
			if strings.HasPrefix(p, m.prefix) {
				return "an absolute path on the prod machines (" + m.whose + ": " + field + ")"
			}
		}
		return "an absolute path on the prod machines (" + field + ")"
	}
	return ""
}

// urlHostRe finds scheme://host and host.domain:port.
var urlHostRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://([^/:\s,@]+)|\b([a-z0-9-]+(?:\.[a-z0-9-]+)+):\d{2,5}\b`)
})

// prodHost finds an IP address, a cloud-internal name, a URL's host or a
// host:port in a value (localhost does not count).
func prodHost(v string) string {
	if h := prodHostRe().FindString(v); h != "" {
		return h
	}
	for _, m := range urlHostRe().FindAllStringSubmatch(v, -1) {
		h := m[1] + m[2]
		if h != "" && h != "localhost" && !strings.HasPrefix(h, "127.") {
			return h
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

// prodPath returns the prod-only storage prefix a value uses, or "".
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
