package mirror

import "testing"

// TestImageNameScalaPython: Scala and Python named in an image's
// repository (not only its tag) are read, as Java already was.
func TestImageNameScalaPython(t *testing.T) {
	for _, tc := range []struct{ image, scala, python string }{
		{"public.ecr.aws/data-on-eks/spark3.5.3-scala2.12-java17-python3-ubuntu-tpcds:v2", "2.12", "3"},
		{"apache/spark:3.4.1-scala2.12-java11-python3-ubuntu", "2.12", "3"},
		{"myrepo/spark_3.5.1-scala_2.13:python3.11", "2.13", "3.11"},
		{"example/spark-3.5.1:v2", "", ""},
	} {
		t.Run(tc.image, func(t *testing.T) {
			p := newProfile("x", FormatSparkSubmit)
			p.addConf("spark.kubernetes.container.image", tc.image, "test")
			p.factsOutsideConf()
			eq(t, "scala", p.Runtime.Scala, tc.scala)
			eq(t, "python", p.Runtime.Python, tc.python)
		})
	}
}

func TestNodeSelectorInstanceType(t *testing.T) {
	const head = "apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata: {name: x}\nspec:\n  sparkVersion: 3.5.1\n"
	for _, tc := range []struct{ name, doc, worker, driver, cloud string }{
		{"pod nodeSelector", head + "  driver:\n    nodeSelector: {node.kubernetes.io/instance-type: c6i.2xlarge}\n" +
			"  executor:\n    nodeSelector: {karpenter.sh/capacity-type: on-demand, node.kubernetes.io/instance-type: g7e.2xlarge}\n",
			"g7e.2xlarge", "c6i.2xlarge", "aws"},
		{"template nodeSelector", head + "  executor:\n    template:\n      spec:\n        nodeSelector: {node.kubernetes.io/instance-type: r8gd.12xlarge}\n",
			"r8gd.12xlarge", "", "aws"},
		{"spec nodeSelector, beta label", head + "  nodeSelector: {beta.kubernetes.io/instance-type: Standard_NC24ads_A100_v4}\n",
			"Standard_NC24ads_A100_v4", "Standard_NC24ads_A100_v4", "azure"},
		{"a node group label names no type", head + "  executor:\n    nodeSelector: {eks.amazonaws.com/nodegroup: C7g_4, instance-type: g6e-8xlarge}\n",
			"", "", ""},
		{"selector confs", head + "  sparkConf:\n    spark.kubernetes.executor.node.selector.node.kubernetes.io/instance-type: a2-highgpu-1g\n" +
			"    spark.kubernetes.node.selector.node.kubernetes.io/instance-type: n2-standard-8\n",
			"a2-highgpu-1g", "n2-standard-8", "gcp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := importBytes("app.yaml", FormatSparkOperator, []byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			p.factsOutsideConf()
			eq(t, "worker type", p.Topology.WorkerType, tc.worker)
			eq(t, "driver type", p.Topology.DriverType, tc.driver)
			eq(t, "cloud", p.Source.Cloud, tc.cloud)
		})
	}
}
