package mirror

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// Facts stated outside the confs' version keys: image names, JAVA_HOME
// and Python paths, RAPIDS shim class names, jar file names, Maven
// coordinates, and the platform and cloud named by application ids, host
// names and instance types. Versions read from names rank below what a
// file declares (precedence.go): they fill what nothing declared, and a
// disagreement is reported as a conflict.

// factsOutsideConf reads those facts from the confs, the environment and
// the runtime label.
func (p *Profile) factsOutsideConf() {
	p.versionsFromImages()
	p.platformFromImages()
	p.javaFromPaths()
	p.pythonFromPaths()
	p.sparkFromShim()
	p.versionsFromJarNames()
	p.sparkFromPodLabels()
	p.platformFromIDs()
	p.typesFromSelectorConfs()
	p.cloudFromInstanceTypes()
	p.cloudFromStorage()
	p.scalaFromSpark()
}

// scalaFromSpark: the Spark lines built for one Scala (2.3, 3.0, 3.1 and
// Spark 4) give it when nothing named one; lines built for two (2.4, 3.2
// to 3.5) say nothing.
func (p *Profile) scalaFromSpark() {
	if p.Runtime.Spark == "" {
		return
	}
	scala := onlyScala[minorOf(p.Runtime.Spark)]
	if major, _, _ := strings.Cut(p.Runtime.Spark, "."); scala == "" {
		if n, err := strconv.Atoi(major); err == nil && n >= 4 {
			scala = "2.13"
		}
	}
	if scala != "" {
		setStr(&p.Runtime.Scala, &p.Runtime.ScalaProvenance, scala, "Spark "+p.Runtime.Spark+" builds for Scala "+scala+" only", false)
	}
}

// onlyScala are the Spark lines built for one Scala: 2.3 dropped Scala
// 2.10 (SPARK-19810) and 2.4 added 2.12; 3.0 dropped 2.11 and 3.2 added
// 2.13 (the release notes of each); Spark 4 is 2.13 only (above).
var onlyScala = map[string]string{"2.3": "2.11", "3.0": "2.12", "3.1": "2.12"}

// fromTable reports whether a fact was looked up in a runtime table rather
// than read.
func fromTable(prov string) bool { return strings.Contains(prov, "table:") }

// imageKeys name container images whose names may carry the Spark version
// (the *.docker.image ones are those of the apache-spark-on-k8s fork,
// Spark 2.2's Kubernetes support before Spark 2.3 took it in).
var imageKeys = []string{"spark.kubernetes.container.image", "spark.kubernetes.driver.container.image",
	"spark.kubernetes.executor.container.image", "spark.executorEnv.YARN_CONTAINER_RUNTIME_DOCKER_IMAGE",
	"spark.kubernetes.driver.docker.image", "spark.kubernetes.executor.docker.image"}

var (
	// a tag of Spark's own image: a release (3.4.1-scala2.12, v3.1.1) or a
	// line (3.2-latest, Data Mechanics' tags of the newest 3.2 release)
	imageSparkRe = lazy.Regexp(`^v?(\d+\.\d+\.\d+)(?:[-_.]|$)|^v?(\d+\.\d+)(?:[-_]|$)`)
	// a version that names Spark: spark-3.5.1, spark_3.5.1, spark3.5.8,
	// spark352 (three digits: major, minor, patch)
	namedSparkRe  = lazy.Regexp(`(?i)(?:^|[^a-z0-9])spark[-_]?v?(\d+\.\d+\.\d+|\d{3})(?:[^0-9.]|$)`)
	namedRapidsRe = lazy.Regexp(`(?i)(?:^|[^a-z0-9])rapids[-_]?v?(\d{2}\.\d{2}\.\d+)(?:[^0-9.]|$)`)
	namedCUDARe   = lazy.Regexp(`(?i)(?:^|[^a-z0-9])cuda[-_]?(\d{2})[.-](\d)(?:[^0-9.]|$)`)
	tagScalaRe    = lazy.Regexp(`scala[-_]?(2\.1[0-9])`)
	tagJavaRe     = lazy.Regexp(`(?:java|jdk|jre)[-_]?(1\.8|8|11|17|21|25)(?:\D|$)`)
	tagPythonRe   = lazy.Regexp(`python[-_]?(3(?:\.\d+)?)(?:\D|$)`)
	// Spark's own images, whose tag is Spark's version: the official
	// ones, and the apache-spark-on-k8s fork's (kubespark/spark-driver:v2.2.0-kubernetes-0.5.0)
	sparkImageRepos = map[string]bool{"spark": true, "spark-py": true, "spark-r": true,
		"spark-driver": true, "spark-driver-py": true, "spark-driver-r": true,
		"spark-executor": true, "spark-executor-py": true, "spark-executor-r": true}
)

// versionsFromImages reads the images a SparkApplication or the confs
// name.
func (p *Profile) versionsFromImages() {
	refs := map[string]string{}
	if p.Source.Format == FormatSparkOperator && strings.HasPrefix(p.Runtime.LabelProvenance, "spark-operator:") {
		refs[p.Runtime.LabelProvenance] = p.Runtime.Label
	}
	for _, k := range imageKeys {
		if v := p.Conf[k]; v != "" {
			refs["conf:"+k] = v
		}
	}
	for _, src := range slices.Sorted(maps.Keys(refs)) {
		p.versionsFromImage(refs[src], src)
	}
}

// imageSpark finds the Spark release an image reference names: the tag
// of Spark's own image (apache/spark:3.4.1-..., .../spark:v3.1.1, whose
// repository is Spark), or a version named "spark" anywhere in the
// reference (spark352-rapids25-...:v1.1.0 is 3.5.2; ...:spark-3.5.1_rapids-...
// is 3.5.1). A bare tag of another image is that image's own version,
// never Spark's.
func imageSpark(ref string) string {
	repo, tag := splitImage(ref)
	if strings.Contains(repo, "spark-operator/spark-operator") || path.Base(repo) == "spark-operator" {
		return "" // the operator's own image: its tag is the operator's version
	}
	if sparkImageRepos[path.Base(repo)] {
		if m := imageSparkRe().FindStringSubmatch(tag); m != nil {
			return m[1] + m[2]
		}
	}
	m := namedSparkRe().FindStringSubmatch(path.Base(repo) + ":" + tag)
	if m == nil {
		return ""
	}
	if v := m[1]; len(v) == 3 && !strings.Contains(v, ".") {
		return v[:1] + "." + v[1:2] + "." + v[2:]
	}
	return m[1]
}

func (p *Profile) versionsFromImage(ref, src string) {
	spark := imageSpark(ref)
	if spark == "" {
		return
	}
	src = src + " (image " + ref + ")"
	p.inferSpark(spark, src)
	name := path.Base(ref)
	if s := tagScalaRe().FindStringSubmatch(name); s != nil {
		p.setFact("scala", s[1], src, rankInferred)
	} else if strings.HasPrefix(p.Runtime.Spark, "4.") && p.Runtime.Spark == spark {
		p.setFact("scala", "2.13", src+" (Spark 4 is built for Scala 2.13 only)", rankInferred)
	}
	if j := tagJavaRe().FindStringSubmatch(name); j != nil {
		p.setFact("java", strings.TrimPrefix(j[1], "1."), src, rankInferred)
	} else if officialSparkImage(ref) && strings.HasPrefix(spark, "4.0.") {
		p.setFact("java", "17", src+" (the official Spark 4.0 images' default tags run Java 17)", rankInferred)
	}
	if py := tagPythonRe().FindStringSubmatch(name); py != nil {
		p.setFact("python", py[1], src, rankInferred)
	}
	if m := namedRapidsRe().FindStringSubmatch(name); m != nil {
		setStr(&p.GPU.Rapids, &p.GPU.RapidsProvenance, m[1], src, false)
	}
	if m := namedCUDARe().FindStringSubmatch(name); m != nil {
		setStr(&p.GPU.CUDA, &p.GPU.CUDAProvenance, m[1]+"."+m[2], src, false)
	}
}

// officialSparkImage reports whether ref is Apache Spark's own image:
// apache/spark or the Docker official image spark, on Docker Hub.
func officialSparkImage(ref string) bool {
	repo, _ := splitImage(ref)
	repo = strings.TrimPrefix(strings.TrimPrefix(repo, "docker.io/"), "library/")
	return repo == "apache/spark" || repo == "spark"
}

// splitImage splits "host/repo:tag@digest" into repository and tag.
func splitImage(ref string) (repo, tag string) {
	ref, _, _ = strings.Cut(ref, "@")
	i := strings.LastIndex(ref, ":")
	if i < 0 || strings.Contains(ref[i:], "/") {
		return ref, ""
	}
	return ref[:i], ref[i+1:]
}

// javaHomeKeys are where JAVA_HOME is set for Spark's processes.
var javaHomeKeys = []string{"spark.executorEnv.JAVA_HOME", "spark.yarn.appMasterEnv.JAVA_HOME",
	"spark.kubernetes.driverEnv.JAVA_HOME"}

var javaHomeRe = lazy.Regexp(`(?i)(?:java|jdk|jre|openjdk|corretto|temurin|zulu|adoptopenjdk|graalvm)[-_]?(?:1\.)?(8|11|17|21|25)(?:[^0-9]|$)`)

// javaFromPaths reads the Java major version from JAVA_HOME paths such as
// /usr/lib/jvm/java-11-openjdk-amd64 or /usr/lib/jvm/jdk1.8.0_282.
func (p *Profile) javaFromPaths() {
	if p.Runtime.Java != "" && !fromTable(p.Runtime.JavaProvenance) {
		return // a JVM's own report decides; a path beats a runtime table
	}
	homes := map[string]string{}
	for _, k := range javaHomeKeys {
		homes["conf:"+k] = p.Conf[k]
	}
	homes["env:JAVA_HOME"] = p.Env["JAVA_HOME"]
	for _, src := range slices.Sorted(maps.Keys(homes)) {
		if m := javaHomeRe().FindStringSubmatch(homes[src]); m != nil {
			p.Runtime.Java, p.Runtime.JavaProvenance = m[1], src+" ("+homes[src]+")"
			return
		}
	}
}

// pythonPathRe: python3.10, python310, python27, python2.7, or python3
// alone (the major version only)
var pythonPathRe = lazy.Regexp(`python([23])\.?(\d{1,2})?(?:[^0-9.]|$)`)

// pythonFromPaths reads "/usr/bin/python3.10" from spark.pyspark.python and
// friends.
func (p *Profile) pythonFromPaths() {
	if p.Runtime.Python != "" && p.Runtime.Python != "3" && !fromTable(p.Runtime.PythonProvenance) {
		return
	}
	paths := map[string]string{
		"conf:spark.pyspark.python":                      p.Conf["spark.pyspark.python"],
		"conf:spark.pyspark.driver.python":               p.Conf["spark.pyspark.driver.python"],
		"env:PYSPARK_PYTHON":                             p.Env["PYSPARK_PYTHON"],
		"conf:spark.executorEnv.PYSPARK_PYTHON":          p.Conf["spark.executorEnv.PYSPARK_PYTHON"],
		"conf:spark.yarn.appMasterEnv.PYSPARK_PYTHON":    p.Conf["spark.yarn.appMasterEnv.PYSPARK_PYTHON"],
		"conf:spark.kubernetes.driverEnv.PYSPARK_PYTHON": p.Conf["spark.kubernetes.driverEnv.PYSPARK_PYTHON"],
	}
	for _, src := range slices.Sorted(maps.Keys(paths)) {
		m := pythonPathRe().FindStringSubmatch(paths[src])
		switch {
		case m == nil:
		case m[2] != "":
			p.Runtime.Python, p.Runtime.PythonProvenance = m[1]+"."+m[2], src+" ("+paths[src]+")"
			return
		case p.Runtime.Python == "":
			p.Runtime.Python, p.Runtime.PythonProvenance = m[1], src+" ("+paths[src]+")"
		}
	}
}

var shimRe = lazy.Regexp(`^com\.nvidia\.spark\.rapids\.(?:shims\.)?spark(\d)(\d)(\d)(db\d*|cdh)?\.[A-Za-z]+$`)

// shimKeys are the confs whose class a RAPIDS jar has per Spark release,
// in the order their shim is read.
var shimKeys = []string{"spark.shuffle.manager", "spark.sql.cache.serializer", "spark.rapids.shims-provider-override"}

// sparkFromShim reads Spark from the shim of a RAPIDS class a conf names
// (com.nvidia.spark.rapids.spark341.RapidsShuffleManager is Spark 3.4.1;
// spark350db143 is Databricks' 3.5.0;
// com.nvidia.spark.rapids.shims.spark311.ParquetCachedBatchSerializer
// Spark 3.1.1): the class names the release it was built for.
func (p *Profile) sparkFromShim() {
	for _, k := range shimKeys {
		v := strings.TrimSpace(p.Conf[k])
		m := shimRe().FindStringSubmatch(v)
		if m == nil {
			continue
		}
		shim := "spark" + m[1] + m[2] + m[3] + m[4]
		p.inferSpark(m[1]+"."+m[2]+"."+m[3], "conf:"+k+" (shim "+shim+" of "+v+")")
		if strings.HasPrefix(m[4], "db") && p.Source.Platform == "" {
			p.Source.Platform = "databricks"
		}
		return
	}
}

// jarKeys list jars by path or URL.
var jarKeys = []string{"spark.jars", "spark.driver.extraClassPath", "spark.executor.extraClassPath",
	"spark.yarn.dist.jars", "spark.submit.pyFiles", "spark.app.mainApplicationFile"}

var (
	sparkModuleJarRe = lazy.Regexp(`^spark-(?:examples|core|sql|catalyst|streaming|mllib|hive|yarn|kubernetes|repl|graphx|avro|connect|hadoop-cloud|sql-kafka-0-10|streaming-kafka-0-10)_(2\.1[0-9])-(\d+\.\d+\.\d+)(?:-SNAPSHOT)?\.jar$`)
	scalaJarRe       = lazy.Regexp(`_(2\.1[0-9])-[0-9][^/]*\.jar$`)
	sbtTargetRe      = lazy.Regexp(`(?:^|/)target/scala-(2\.1[0-9])$`)
)

// versionsFromJarNames reads Spark's own module jars
// (spark-examples_2.11-2.4.0.jar: Spark 2.4.0, Scala 2.11), the Scala
// line of any _2.1x jar, and Spark's own modules named by Maven
// coordinates (org.apache.spark:spark-sql-kafka-0-10_2.12:3.5.1: Spark
// 3.5.1, Scala 2.12).
func (p *Profile) versionsFromJarNames() {
	for _, k := range jarKeys {
		for _, entry := range splitList(p.Conf[k]) {
			p.jarNameFacts(path.Base(entry), "conf:"+k+" ("+path.Base(entry)+")")
			if m := sbtTargetRe().FindStringSubmatch(path.Dir(entry)); m != nil {
				// sbt builds into target/scala-2.12/: the directory names the Scala line
				p.setFact("scala", m[1], "conf:"+k+" ("+entry+", sbt's output directory)", rankInferred)
			}
		}
	}
	for _, c := range strings.Split(p.Conf["spark.jars.packages"], ",") {
		c = strings.TrimSpace(c)
		src := "conf:spark.jars.packages (" + c + ")"
		if m := sparkCoordRe().FindStringSubmatch(c); m != nil {
			p.inferSpark(m[2], strings.TrimSuffix(src, ")")+", Spark's own module)")
		}
		if m := scalaCoordRe().FindStringSubmatch(c); m != nil {
			p.setFact("scala", m[1], strings.TrimSuffix(src, ")")+", Scala suffix)", rankInferred)
		}
		if m := rapidsCoordRe().FindStringSubmatch(c); m != nil {
			// the RAPIDS Accelerator by Maven coordinates, as NVIDIA's own
			// docs pass it: com.nvidia:rapids-4-spark_2.12:24.08.0
			p.setRapidsJar(rapidsJar{File: "rapids-4-spark_" + m[1] + "-" + m[2] + ".jar", Scala: m[1], Version: m[2]},
				strings.TrimSuffix(src, ")")+", the RAPIDS Accelerator's coordinates)")
		}
		if line, delta := deltaSparkLine(c); line != "" {
			p.setFact("spark", line, strings.TrimSuffix(src, ")")+", Delta Lake "+delta+" is built for the Spark "+line+" line)", rankInferred)
		}
		if m := sparkPackageCoordRe().FindStringSubmatch(c); m != nil {
			// a Spark Packages build (graphframes:graphframes:0.8.1-spark3.0-s_2.12)
			// names the Spark line it was built for, not a release
			p.setFact("spark", m[1], strings.TrimSuffix(src, ")")+", built for the Spark "+m[1]+" line)", rankInferred)
			p.setFact("scala", m[2], strings.TrimSuffix(src, ")")+", Scala suffix s_"+m[2]+")", rankInferred)
		}
	}
}

// deltaSparkLines are the Spark lines Delta Lake's releases are built for,
// by Delta's major.minor (docs.delta.io/releases, "Compatibility with
// Apache Spark"); older than 0.7, 2.4.2 and later.
var deltaSparkLines = map[string]string{
	"4.0": "4.0", "3.3": "3.5", "3.2": "3.5", "3.1": "3.5", "3.0": "3.5", "2.4": "3.4", "2.3": "3.3", "2.2": "3.3",
	"2.1": "3.3", "2.0": "3.2", "1.2": "3.2", "1.1": "3.2", "1.0": "3.1", "0.8": "3.0", "0.7": "3.0",
}

var rapidsCoordRe = lazy.Regexp(`^com\.nvidia:rapids-4-spark_(2\.1[0-9]):(\d+\.\d+\.\d+(?:-SNAPSHOT)?)$`)

var deltaCoordRe = lazy.Regexp(`^io\.delta:delta-(?:core|spark)_2\.1[0-9]:(\d+\.\d+)\.\d+`)

// deltaSparkLine is the Spark line the Delta Lake package coords is built
// for, and its version; "" for any other package or a Delta not in the
// table.
func deltaSparkLine(coords string) (line, delta string) {
	m := deltaCoordRe().FindStringSubmatch(coords)
	if m == nil {
		return "", ""
	}
	return deltaSparkLines[m[1]], m[1]
}

var (
	scalaCoordRe = lazy.Regexp(`^[^:]+:[^:]+_(2\.1[0-9]):[^:]+`)
	sparkCoordRe = lazy.Regexp(`^org\.apache\.spark:spark-[a-z0-9-]+_(2\.1[0-9]):(\d+\.\d+\.\d+)$`)
	// the Spark Packages convention: version-sparkX.Y-s_2.1Z
	sparkPackageCoordRe = lazy.Regexp(`^[^:]+:[^:]+:[^:]*-spark(\d\.\d+)-s_(2\.1[0-9])$`)
)

// jarNameFacts reads one jar's file name.
func (p *Profile) jarNameFacts(base, src string) {
	if m := sparkModuleJarRe().FindStringSubmatch(base); m != nil {
		p.inferSpark(m[2], src)
		p.setFact("scala", m[1], src, rankInferred)
		return
	}
	if m := scalaJarRe().FindStringSubmatch(base); m != nil {
		p.setFact("scala", m[1], src+" (Scala suffix)", rankInferred)
	}
	if m := namedSparkRe().FindStringSubmatch(base); m != nil && strings.Contains(m[1], ".") {
		// a library built for one Spark release names it:
		// bigdl-assembly-spark_2.4.6-2.2.0-jar-with-dependencies.jar
		p.inferSpark(m[1], src+" (built for Spark "+m[1]+")")
	}
}

func splitList(v string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

var (
	yarnAppRe    = lazy.Regexp(`^application_\d{10,}_\d+$`)
	emrClusterRe = lazy.Regexp(`\bj-[0-9A-Z]{8,16}\b`)
)

// platformFromIDs reads the platform from YARN application ids and EMR
// cluster ids when no fingerprint decided it.
func (p *Profile) platformFromIDs() {
	if p.Source.Platform != "" && p.Source.Platform != "yarn" {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(p.Conf)) {
		lk, lv := strings.ToLower(k), strings.ToLower(p.Conf[k])
		if (strings.Contains(lk, "emr") || strings.Contains(lk, "cluster") || strings.Contains(lv, "emr")) && emrClusterRe().MatchString(p.Conf[k]) {
			p.Source.Platform, p.Source.Cloud = "emr", "aws"
			return
		}
	}
	if p.Source.Platform == "" && yarnAppRe().MatchString(p.Conf["spark.app.id"]) {
		p.Source.Platform = "yarn"
	}
}

var (
	ec2TypeRe = lazy.Regexp(`^[a-z][a-z0-9-]*\d[a-z0-9-]*\.(?:\d*x?large|metal|medium|small|micro|nano|\d+xlarge)$`)
	gceTypeRe = lazy.Regexp(`^(?:n1|n2|n2d|n4|e2|c2|c2d|c3|c3d|c4|m1|m2|m3|a2|a3|g2|t2d|t2a|h3|z3)-[a-z0-9-]+$`)
)

// cloudFromInstanceTypes names the cloud from the worker's or driver's
// instance type when nothing else did: EC2 (g4dn.xlarge), Azure
// (Standard_NC6s_v3), GCE (n1-standard-8, a2-highgpu-1g).
func (p *Profile) cloudFromInstanceTypes() {
	if p.Source.Cloud != "" {
		return
	}
	for _, t := range []string{p.Topology.WorkerType, p.Topology.DriverType, p.Conf["spark.databricks.clusterUsageTags.clusterNodeType"]} {
		switch {
		case t == "":
		case strings.HasPrefix(t, "Standard_"):
			p.Source.Cloud = "azure"
		case gceTypeRe().MatchString(t):
			p.Source.Cloud = "gcp"
		case ec2TypeRe().MatchString(t):
			p.Source.Cloud = "aws"
		default:
			continue
		}
		return
	}
}

// sparkFromPodLabels takes the Spark release from a SparkApplication's pod
// label version: (the operator's examples label driver and executor pods
// with their Spark release, and files copied from them keep it) when
// nothing else named it. It is the weakest source: the examples' labels
// lag their own sparkVersion (version: 4.0.0 beside sparkVersion 4.0.4),
// so a label never contradicts another source.
func (p *Profile) sparkFromPodLabels() {
	for _, l := range p.podSparkLabel {
		if p.Runtime.Spark != "" {
			return
		}
		p.inferSpark(l[0], l[1])
	}
}

// storageClouds map object store URL schemes and AWS credential providers
// to the cloud that serves them. s3a:// is Hadoop's S3 client for any S3
// store (MinIO and Ceph too, their endpoint often in core-site.xml rather
// than in the file): it names AWS only with an AWS credential provider or
// endpoint beside it.
var storageClouds = []struct {
	marker, cloud string
	s3            bool // an S3 URL: a store of another endpoint serves it too
}{
	{"s3://", "aws", true}, {"s3n://", "aws", true},
	{"WebIdentityTokenCredentialsProvider", "aws", false}, {"InstanceProfileCredentialsProvider", "aws", false},
	{"WebIdentityTokenFileCredentialsProvider", "aws", false}, // AWS SDK v2's name of EKS's web identity (IRSA)
	{"amazonaws.com", "aws", false},
	{"gs://", "gcp", false},
	{"abfss://", "azure", false}, {"abfs://", "azure", false}, {"wasbs://", "azure", false}, {"wasb://", "azure", false}, {"adl://", "azure", false},
}

// cloudFromStorage names the cloud from the object stores the job reads
// and writes (s3://, gs://, abfss:// in its confs, application and
// arguments, or an AWS credential provider or endpoint), when nothing else
// did and they agree. An S3 endpoint that is not AWS's (MinIO, Ceph: any
// *endpoint key of another host) makes S3 URLs say nothing of the cloud.
func (p *Profile) cloudFromStorage() {
	if p.Source.Cloud != "" {
		return
	}
	otherS3 := false
	for k, v := range p.Conf {
		if strings.HasSuffix(strings.ToLower(k), "endpoint") && v != "" && !strings.Contains(v, "amazonaws.com") {
			otherS3 = true
		}
	}
	found := ""
	for _, v := range append(slices.Collect(maps.Values(p.Conf)), p.files...) {
		for _, sc := range storageClouds {
			if !strings.Contains(v, sc.marker) || otherS3 && sc.s3 {
				continue
			}
			if found != "" && found != sc.cloud {
				return // more than one cloud: say none
			}
			found = sc.cloud
		}
	}
	p.Source.Cloud = found
}

// describeFacts is for tests and messages: the versions with their sources.
func (p *Profile) describeFacts() string {
	r := p.Runtime
	return fmt.Sprintf("spark %s (%s), scala %s (%s), java %s (%s), python %s (%s), platform %s, cloud %s",
		r.Spark, r.SparkProvenance, r.Scala, r.ScalaProvenance, r.Java, r.JavaProvenance, r.Python, r.PythonProvenance,
		p.Source.Platform, p.Source.Cloud)
}
