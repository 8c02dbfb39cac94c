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
