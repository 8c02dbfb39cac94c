package mirror

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestForkEraImages: a script of the apache-spark-on-k8s fork (Spark 2.2
// on Kubernetes before Spark 2.3) names its images with
// spark.kubernetes.{driver,executor}.docker.image, tagged
// v2.2.0-kubernetes-0.5.0: Spark 2.2.0 on Kubernetes, the keys left out
// of the local confs. The script runs spark-submit through eval, which
// reads the quoted "${SPARK_OPTS}" as the options it holds.
func TestForkEraImages(t *testing.T) {
	p, err := Import(filepath.Join("testdata", "real", "scripts", "eg-spark-python-kubernetes-run.sh"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Runtime.Spark != "2.2.0" || !strings.Contains(p.Runtime.SparkProvenance, "kubespark/spark-driver-py:v2.2.0-kubernetes-0.5.0") {
		t.Errorf("spark %q (%s), want 2.2.0 from the fork's driver image", p.Runtime.Spark, p.Runtime.SparkProvenance)
	}
	if p.Source.Platform != "kubernetes" {
		t.Errorf("platform %q, want kubernetes", p.Source.Platform)
	}
	local := p.Localize(Host{CPUs: 4, MemoryMB: 8192})
	for _, k := range []string{"spark.kubernetes.driver.docker.image", "spark.kubernetes.executor.docker.image"} {
		if _, kept := local.Conf[k]; kept {
			t.Errorf("%s kept in the local confs", k)
		}
	}
	// another image's bare tag is still never Spark's
	if got := imageSpark("example.com/spark-driver-tools/runner:v2.2.0"); got != "" {
		t.Errorf("imageSpark of another image = %q", got)
	}
}
