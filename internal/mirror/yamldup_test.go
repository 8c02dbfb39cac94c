package mirror

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestDropDuplicateKeys(t *testing.T) {
	for _, tc := range []struct {
		name, doc, key, want string
		notes                int
	}{
		{"none", "a: 1\nb: 2\n", "a", "1", 0},
		{"top level, last wins", "a: 1\nb: 2\na: 3\n", "a", "3", 1},
		{"nested sparkConf", "spec:\n  sparkConf:\n    x: \"1\"\n    y: \"2\"\n    x: \"9\"\n", "spec.sparkConf.x", "9", 1},
		{"three times", "a: 1\na: 2\na: 3\n", "a", "3", 2},
		{"in a list item", "l:\n  - k: 1\n    k: 2\n", "l.0.k", "2", 1},
		{"same key in two maps is no repeat", "m: {k: 1}\nn: {k: 2}\n", "n.k", "2", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n yaml.Node
			if err := yaml.Unmarshal([]byte(tc.doc), &n); err != nil {
				t.Fatal(err)
			}
			notes := dropDuplicateKeys(&n)
			if len(notes) != tc.notes {
				t.Errorf("notes %q, want %d", notes, tc.notes)
			}
			var v any
			if err := n.Decode(&v); err != nil {
				t.Fatalf("decode after dropping: %v", err)
			}
			for _, part := range strings.Split(tc.key, ".") {
				if l, ok := v.([]any); ok {
					v = l[0]
					continue
				}
				v = asMap(v)[part]
			}
			if str(v) != tc.want {
				t.Errorf("%s = %v, want %s", tc.key, v, tc.want)
			}
		})
	}
}

func TestSparkOperatorDuplicateKeys(t *testing.T) {
	doc := `apiVersion: sparkoperator.k8s.io/v1beta2
kind: SparkApplication
spec:
  sparkVersion: "3.5.1"
  sparkConf:
    spark.sql.shuffle.partitions: "200"
    spark.sql.shuffle.partitions: "400"
`
	if f := detectBytes([]byte(doc)); f != FormatSparkOperator {
		t.Fatalf("detected as %q", f)
	}
	p, err := importBytes("app.yaml", FormatSparkOperator, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Conf["spark.sql.shuffle.partitions"]; got != "400" {
		t.Errorf("spark.sql.shuffle.partitions = %q, want the last value 400", got)
	}
	if !strings.Contains(strings.Join(p.Warnings, "\n"), "line 6: spark.sql.shuffle.partitions is set again at line 7") {
		t.Errorf("no warning about the repeated key: %q", p.Warnings)
	}
}
