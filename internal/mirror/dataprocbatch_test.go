package mirror

import (
	"strings"
	"testing"
)

func TestDataprocServerlessBatch(t *testing.T) {
	for _, tc := range []struct {
		name, doc                         string
		label, spark, java, python, warns string
		confs                             map[string]string
	}{
		{"batches describe YAML", `
name: projects/p/locations/us-central1/batches/b1
pysparkBatch:
  mainPythonFileUri: gs://b/job.py
runtimeConfig:
  version: '2.2'
  properties:
    spark.executor.instances: '4'
    spark.dataproc.executor.compute.tier: premium
environmentConfig:
  executionConfig:
    subnetworkUri: default
state: SUCCEEDED
`, "2.2", "3.5.1", "17", "3.12", "", map[string]string{"spark.executor.instances": "4"}},
		{"batches.create JSON, patch version", `{"sparkBatch": {"mainClass": "X", "jarFileUris": ["gs://b/rapids-4-spark_2.12-24.10.0.jar"]},
 "runtimeConfig": {"version": "1.1.58", "properties": {"spark.plugins": "com.nvidia.spark.SQLPlugin"}}}`,
			"1.1.58", "3.3.4", "11", "3.10", "", map[string]string{"spark.plugins": "com.nvidia.spark.SQLPlugin"}},
		{"no version", `{"sparkSqlBatch": {"queryFileUri": "gs://b/q.sql"}, "runtimeConfig": {}}`,
			"", "", "", "", "names no runtimeConfig.version", nil},
		{"unknown runtime", "pysparkBatch: {mainPythonFileUri: gs://b/j.py}\nruntimeConfig: {version: '9.9'}\n",
			"9.9", "", "", "", "not in devenv's table", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if f := detectBytes([]byte(tc.doc)); f != FormatDataproc {
				t.Fatalf("detected as %q, want dataproc", f)
			}
			p, err := importBytes("batch.yaml", FormatDataproc, []byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			eq(t, "platform", p.Source.Platform, "dataproc-serverless")
			eq(t, "cloud", p.Source.Cloud, "gcp")
			eq(t, "label", p.Runtime.Label, tc.label)
			eq(t, "spark", p.Runtime.Spark, tc.spark)
			eq(t, "java", p.Runtime.Java, tc.java)
			eq(t, "python", p.Runtime.Python, tc.python)
			for k, v := range tc.confs {
				eq(t, k, p.Conf[k], v)
			}
			if w := strings.Join(p.Warnings, "\n"); !strings.Contains(w, tc.warns) {
				t.Errorf("warnings %q do not say %q", w, tc.warns)
			}
		})
	}
}
