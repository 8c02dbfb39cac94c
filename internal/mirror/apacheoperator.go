package mirror

import (
	"maps"
	pathpkg "path"
	"slices"
	"strings"
)

// The Apache Spark K8s Operator (apiVersion spark.apache.org/v1, v1beta1,
// v1alpha1) is Apache Spark's own operator; its kinds differ from the
// Kubeflow operator's: a SparkApplication declares its versions in
// spec.runtimeVersions (sparkVersion, scalaVersion, jdkVersion), keeps
// every Spark setting in spec.sparkConf (the image too, whose
// {{SPARK_VERSION}} the operator fills with the declared release), and
// sizes its executors in spec.applicationTolerations.instanceConfig; a
// SparkCluster is a Spark standalone master and workers in pods, sized by
// spec.clusterTolerations.instanceConfig.

const apacheOperatorGroup = "spark.apache.org/"

// isApacheOperator reports whether a document is of the Apache operator's API.
func isApacheOperator(m map[string]any) bool {
	return strings.HasPrefix(str(m["apiVersion"]), apacheOperatorGroup)
}

// readApacheOperator reads a SparkApplication or SparkCluster of the
// Apache operator.
func readApacheOperator(path string, m map[string]any) *Profile {
	const at = "spark-operator:spec."
	p := newProfile(path, FormatSparkOperator)
	spec := asMap(m["spec"])
	rv := asMap(spec["runtimeVersions"])
	sv := str(rv["sparkVersion"])
	if sv != "" {
		p.setSpark(sv, at+"runtimeVersions.sparkVersion (declared)", false)
	}
	if s := str(rv["scalaVersion"]); s != "" {
		p.setFact("scala", s, at+"runtimeVersions.scalaVersion (declared)", rankDeclared)
	}
	if j := str(rv["jdkVersion"]); j != "" {
		p.setFact("java", strings.TrimPrefix(j, "1."), at+"runtimeVersions.jdkVersion (declared)", rankDeclared)
	}
	conf := asMap(spec["sparkConf"])
	for _, k := range slices.Sorted(maps.Keys(conf)) {
		v := str(conf[k])
		if sv != "" { // the operator fills the placeholder with the declared release
			v = strings.ReplaceAll(v, "{{SPARK_VERSION}}", sv)
		}
		p.addConf(k, v, at+"sparkConf")
	}
	ic := "instanceConfig"
	if strings.EqualFold(str(m["kind"]), "SparkCluster") {
		p.Source.Platform = "standalone" // the cluster's own master and workers
		inst := asMap(dig(spec, "clusterTolerations", ic))
		src := at + "clusterTolerations.instanceConfig"
		workers := num(inst["initWorkers"])
		if workers == 0 {
			workers = num(inst["minWorkers"])
		}
		setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, workers, src, false)
		if mx := num(inst["maxWorkers"]); mx > workers {
			p.Topology.WorkersMax = mx
		}
		return p
	}
	p.Source.Platform = "kubernetes"
	inst := asMap(dig(spec, "applicationTolerations", ic))
	if _, set := p.Conf["spark.executor.instances"]; !set {
		if n := str(inst["initExecutors"]); n != "" {
			p.addConf("spark.executor.instances", n, at+"applicationTolerations.instanceConfig.initExecutors")
		}
	}
	for _, j := range strings.Split(str(spec["jars"]), ",") {
		if j = strings.TrimSpace(j); strings.HasSuffix(j, ".jar") {
			p.jarNameFacts(pathpkg.Base(j), at+"jars ("+pathpkg.Base(j)+")")
		}
	}
	return p
}
