package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSparkFromSubmitPath: the Spark release in the path of the
// spark-submit a command runs is read (a name: inferred), and a version the
// file declares beats it, the conflict kept with both sources.
func TestSparkFromSubmitPath(t *testing.T) {
	heredoc := "cat > /tmp/c.json <<'JSON'\n{\"cluster_name\": \"n\", \"spark_version\": \"13.3.x-gpu-ml-scala2.12\", \"node_type_id\": \"g5.4xlarge\", \"num_workers\": 2}\nJSON\n"
	cases := []struct {
		name, text, spark, source string
		conflict                  bool
		scala                     string // of Apache's pre-built package; "" not checked
	}{
		{"bare command", "/opt/spark-3.5.1-bin-hadoop3/bin/spark-submit --master 'local[*]' app.py\n", "3.5.1", "spark-submit path /opt/spark-3.5.1-bin-hadoop3/bin/spark-submit", false, "2.12"},
		{"a Scala 2.13 package", "/opt/spark-3.5.1-bin-hadoop3-scala2.13/bin/spark-submit app.py\n", "3.5.1", "spark-submit path", false, "2.13"},
		{"a 2.4 package", "/usr/local/spark-2.4.8-bin-hadoop2.7/bin/spark-submit app.py\n", "2.4.8", "spark-submit path", false, "2.11"},
		{"without hadoop", "/opt/spark-3.4.2-bin-without-hadoop/bin/spark-submit --master yarn app.py\n", "3.4.2", "spark-submit path", false, ""},
		{"a script's SPARK_HOME", "#!/bin/sh\nSPARK_HOME=/srv/spark-3.3.4\n$SPARK_HOME/bin/spark-submit --master yarn app.py\n", "3.3.4", "spark-submit path /srv/spark-3.3.4/bin/spark-submit", false, ""},
		{"no version in the path", "/opt/spark/bin/spark-submit --master yarn app.py\n", "", "", false, ""},
		{"declared beats the path", "#!/bin/sh\n" + heredoc + "/opt/spark-3.5.1-bin-hadoop3/bin/spark-submit --master yarn app.py\n", "3.4.1", "heredoc 1", true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "job.sh")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := Import(path, Options{Format: FormatSparkSubmit})
			if err != nil {
				t.Fatal(err)
			}
			eq(t, "spark", p.Runtime.Spark, tc.spark)
			if tc.scala != "" {
				eq(t, "scala", p.Runtime.Scala, tc.scala)
			}
			if !strings.Contains(p.Runtime.SparkProvenance, tc.source) {
				t.Errorf("spark's source %q, want it to name %q", p.Runtime.SparkProvenance, tc.source)
			}
			if !tc.conflict {
				if len(p.Conflicts) > 0 {
					t.Errorf("conflicts %+v, want none", p.Conflicts)
				}
				return
			}
			if len(p.Conflicts) != 1 || p.Conflicts[0].Fact != "spark" || p.Conflicts[0].Other != "3.5.1" ||
				!strings.Contains(p.Conflicts[0].OtherSource, "spark-submit path") || !strings.Contains(p.Conflicts[0].Source, "heredoc") {
				t.Fatalf("conflicts %+v, want spark 3.4.1 (heredoc) against 3.5.1 (spark-submit path)", p.Conflicts)
			}
			warned := false
			for _, w := range p.Warnings {
				warned = warned || strings.Contains(w, "3.5.1") && strings.Contains(w, "3.4.1") && strings.Contains(w, "spark-submit path")
			}
			if !warned {
				t.Errorf("no warning names both sources: %q", p.Warnings)
			}
		})
	}
}
