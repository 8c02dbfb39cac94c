package mirror

import (
	"path/filepath"
	"strings"
	"testing"
)

// A YAML file starts with the document marker "---", which is not a
// spark-submit option: a SparkApplication that yaml.v3 cannot decode (the
// real data-on-eks file repeats four sparkConf keys) must be refused with
// the YAML error and its line, not imported as an empty spark-submit line.
func TestYAMLDocumentMarkerIsNotASubmitOption(t *testing.T) {
	path := filepath.Join("testdata", "corpus", "train", "doe-tpcds-1t-ssd-graviton.yaml")
	p, err := Import(path, Options{})
	if err == nil {
		t.Fatalf("imported as %s with spark %q, want the YAML problem reported", p.Source.Format, p.Runtime.Spark)
	}
	for _, want := range []string{"does not parse", "line 103", "already defined"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if looksLikeSubmit("---\napiVersion: v1\n") {
		t.Error(`looksLikeSubmit("---\napiVersion: v1") = true, want false`)
	}
	if !looksLikeSubmit("--master yarn --num-executors 4 job.py") {
		t.Error("bare spark-submit options are no longer recognised")
	}
}
