package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStackable reads two of Stackable's own SparkApplication examples:
// the Spark release from sparkImage.productVersion (not the job's image),
// the executors from executor.replicas.
func TestStackable(t *testing.T) {
	for _, tc := range []struct{ file, label string }{
		{"stackable-example-sparkapp-image.yaml", ""},
		{"stackable-example-sparkapp-s3-private.yaml", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "real", "sparkoperator", tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := importBytes(path, detectBytes(data), data)
			if err != nil {
				t.Fatal(err)
			}
			p.factsOutsideConf()
			if p.Source.Platform != "kubernetes" || p.Runtime.Spark != "4.1.1" || !strings.Contains(p.Runtime.SparkProvenance, "productVersion") ||
				p.Conf["spark.executor.instances"] != "3" || p.Runtime.Label != tc.label || p.Source.Cloud != "" {
				t.Errorf("%s spark %q (%s), %q executors, label %q, cloud %q; want kubernetes 4.1.1 from productVersion, 3, %q, no cloud",
					p.Source.Platform, p.Runtime.Spark, p.Runtime.SparkProvenance, p.Conf["spark.executor.instances"], p.Runtime.Label, p.Source.Cloud, tc.label)
			}
		})
	}
}

// TestJSONWithComments: a cluster spec kept with // comment lines (as an
// editor's JSON with comments keeps it; genesis-workbench's cluster_info.json
// opens so) reads as the same spec without them. The spec is a real one
// (databricks-aws-cpu-00.json) with comment lines added.
func TestJSONWithComments(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "real", "databricks-aws-cpu-00.json"))
	if err != nil {
		t.Fatal(err)
	}
	commented := []byte("// Cluster used for the model\n// (exported from the UI)\n" +
		strings.Replace(string(plain), "{", "{ // the spec\n", 1))
	want, err := importBytes("cluster.json", detectBytes(plain), plain)
	if err != nil {
		t.Fatal(err)
	}
	got, err := importBytes("cluster.json", detectBytes(commented), commented)
	if err != nil {
		t.Fatalf("with comments: %v", err)
	}
	if got.Runtime != want.Runtime || got.Topology != want.Topology || len(got.Conf) != len(want.Conf) {
		t.Errorf("with comments: %+v %+v %d confs; without: %+v %+v %d", got.Runtime, got.Topology, len(got.Conf), want.Runtime, want.Topology, len(want.Conf))
	}
	if _, err := decodeJSON([]byte(`{"url": "https://example.com/a"} // a comment`)); err != nil {
		t.Errorf("a // inside a string is no comment: %v", err)
	}
}
