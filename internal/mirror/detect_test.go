package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A YAML file starts with the document marker "---", which is not a
// spark-submit option: a SparkApplication that does not parse must be
// refused with the YAML error and its line, not imported as an empty
// spark-submit line. (The real data-on-eks file repeats four sparkConf
// keys: it reads as kubectl reads it, the last value winning.)
func TestYAMLDocumentMarkerIsNotASubmitOption(t *testing.T) {
	path := filepath.Join("testdata", "corpus", "train", "doe-tpcds-1t-ssd-graviton.yaml")
	p, err := Import(path, Options{})
	if err != nil || p.Source.Format != FormatSparkOperator {
		t.Fatalf("the repeated keys: got %v, want a Spark Operator import", err)
	}
	broken := filepath.Join(t.TempDir(), "app.yaml")
	if err := os.WriteFile(broken, []byte("---\napiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nspec:\n  sparkConf:\n    a: \"1\"\n   b: [2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err = Import(broken, Options{})
	if err == nil {
		t.Fatalf("imported as %s, want the YAML problem reported", p.Source.Format)
	}
	for _, want := range []string{"does not parse", "line 4"} {
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
