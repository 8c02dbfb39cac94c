package mirror

import (
	"fmt"
	"strings"
)

// Stackable's Spark operator (apiVersion spark.stackable.tech/v1alpha1) has
// a SparkApplication of its own: the Spark release is
// spec.sparkImage.productVersion (or the tag of spec.sparkImage.custom),
// spec.image is the job's own image of dependencies (not Spark's), the
// executors are spec.executor.replicas, and the pods' resources are
// Kubernetes limits, not Spark confs; spec.sparkConf and spec.args are as
// the Kubeflow operator's sparkConf and arguments.

const stackableGroup = "spark.stackable.tech/"

// isStackable reports whether a document is of Stackable's operator.
func isStackable(m map[string]any) bool {
	return strings.HasPrefix(str(m["apiVersion"]), stackableGroup)
}

// readStackable reads a Stackable SparkApplication.
func readStackable(path string, m map[string]any) *Profile {
	const at = "spark-operator:spec."
	p := newProfile(path, FormatSparkOperator)
	p.Source.Platform = "kubernetes"
	spec := asMap(m["spec"])
	img := spec["sparkImage"]
	if v := str(asMap(img)["productVersion"]); v != "" {
		p.setSpark(v, at+"sparkImage.productVersion (declared)", false)
	}
	custom := str(asMap(img)["custom"])
	if s, ok := img.(string); ok {
		custom = s
	}
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, custom, at+"sparkImage", false)
	readSparkAppConfs(p, spec, at)
	if n := str(asMap(spec["executor"])["replicas"]); n != "" {
		p.addConf("spark.executor.instances", n, at+"executor.replicas")
	}
	readMainApplication(p, spec, "args", at)
	if job := str(spec["image"]); job != "" {
		p.warn(fmt.Sprintf("spec.image %s is the job's image of dependencies, which the local image does not have: add what the job imports to devenv.yaml", job))
	}
	return p
}
