package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSparkLine: a declared line ("3.2") and a release of it named
// elsewhere agree, whichever is read first; a release of another line is
// a conflict.
func TestSparkLine(t *testing.T) {
	for _, tc := range []struct {
		name      string
		first     [2]string // version, source; declared
		then      [2]string // inferred from a name
		want      string
		conflicts int
	}{
		{"line, then its release", [2]string{"3.2", "spec.sparkVersion"}, [2]string{"3.2.1", "spec.image"}, "3.2.1", 0},
		{"line, then another line's release", [2]string{"3.2", "spec.sparkVersion"}, [2]string{"3.3.1", "spec.image"}, "3.2.0", 1},
		{"release, then another release of the line", [2]string{"3.2.0", "spec.sparkVersion"}, [2]string{"3.2.1", "spec.image"}, "3.2.0", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProfile("app.yaml", FormatSparkOperator)
			p.setSpark(tc.first[0], tc.first[1], false)
			p.inferSpark(tc.then[0], tc.then[1])
			if p.Runtime.Spark != tc.want || len(p.Conflicts) != tc.conflicts {
				t.Errorf("spark %q (%s), %d conflicts; want %q, %d", p.Runtime.Spark, p.Runtime.SparkProvenance, len(p.Conflicts), tc.want, tc.conflicts)
			}
			if p.rankOf("spark") != rankDeclared {
				t.Errorf("rank %v, want declared: the file declared the line", p.rankOf("spark"))
			}
		})
	}
	t.Run("release read first, then its line declared", func(t *testing.T) {
		p := newProfile("app.yaml", FormatSparkOperator)
		p.inferSpark("3.2.1", "spec.image")
		p.setSpark("3.2", "spec.sparkVersion", false)
		if p.Runtime.Spark != "3.2.1" || len(p.Conflicts) != 0 || p.rankOf("spark") != rankDeclared || !strings.Contains(p.Runtime.SparkProvenance, "names its line 3.2") {
			t.Errorf("spark %q (%s, %v), conflicts %v; want 3.2.1, declared, both sources named", p.Runtime.Spark, p.Runtime.SparkProvenance, p.rankOf("spark"), p.Conflicts)
		}
	})
}

// TestSparkFromPodLabels reads a real SparkApplication that states no
// sparkVersion: its pods' version label names the release, read last
// and never against another source.
func TestSparkFromPodLabels(t *testing.T) {
	path := filepath.Join("testdata", "real", "sparkoperator", "cerndb-secure-eos-events-select.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := importBytes(path, detectBytes(data), data)
	if err != nil {
		t.Fatal(err)
	}
	p.factsOutsideConf()
	if p.Runtime.Spark != "2.3.0" || !strings.Contains(p.Runtime.SparkProvenance, "labels.version") || len(p.Conflicts) != 0 {
		t.Errorf("spark %q (%s), conflicts %v; want 2.3.0 from the pods' version label", p.Runtime.Spark, p.Runtime.SparkProvenance, p.Conflicts)
	}
	// beside a sparkVersion, a stale label says nothing (kubeflow's own
	// spark-pi labels 4.0.0 beside sparkVersion 4.0.4)
	stale := strings.Replace(string(data), "  mode: cluster\n", "  mode: cluster\n  sparkVersion: \"2.4.0\"\n", 1)
	q, err := importBytes(path, detectBytes([]byte(stale)), []byte(stale))
	if err != nil {
		t.Fatal(err)
	}
	q.factsOutsideConf()
	if q.Runtime.Spark != "2.4.0" || len(q.Conflicts) != 0 {
		t.Errorf("spark %q, conflicts %v; want the declared 2.4.0 and no conflict", q.Runtime.Spark, q.Conflicts)
	}
}

// TestScalaFromSpark: the Spark lines built for one Scala give it when no
// source named one; lines built for two say nothing.
func TestScalaFromSpark(t *testing.T) {
	for _, tc := range []struct{ spark, declared, want string }{
		{"2.3.0", "", "2.11"},
		{"2.4.5", "", ""}, // 2.11 and 2.12 builds
		{"3.0.1", "", "2.12"},
		{"3.1.3", "", "2.12"},
		{"3.3.1", "", ""}, // 2.12 and 2.13 builds
		{"4.0.0", "", "2.13"},
		{"3.1.1", "2.11", "2.11"}, // what a file states is not overridden
		{"", "", ""},
	} {
		p := newProfile("x", FormatSparkOperator)
		p.Runtime.Spark = tc.spark
		if tc.declared != "" {
			p.Runtime.Scala, p.Runtime.ScalaProvenance = tc.declared, "a jar name"
		}
		p.scalaFromSpark()
		if p.Runtime.Scala != tc.want {
			t.Errorf("Spark %q (declared Scala %q): Scala %q, want %q", tc.spark, tc.declared, p.Runtime.Scala, tc.want)
		}
	}
}

// TestSparkFromDelta: a Delta Lake package names the Spark line it is
// built for (docs.delta.io/releases), and a release of that line named
// elsewhere refines it with no conflict: two real training scripts.
func TestSparkFromDelta(t *testing.T) {
	for _, tc := range []struct{ coords, line string }{
		{"io.delta:delta-core_2.12:2.3.0", "3.3"},
		{"io.delta:delta-spark_2.13:3.2.1", "3.5"},
		{"io.delta:delta-core_2.12:0.8.0", "3.0"},
		{"io.delta:delta-storage:2.3.0", ""},
		{"io.delta:delta-core_2.11:0.6.1", ""},
	} {
		if line, _ := deltaSparkLine(tc.coords); line != tc.line {
			t.Errorf("%s: line %q, want %q", tc.coords, line, tc.line)
		}
	}
	for _, tc := range []struct{ file, spark string }{
		{"ippsa7-submit.sh", "3.3"},             // delta-core 2.3.0 alone
		{"cdcdla7-deltaReadBronze.sh", "3.1.3"}, // delta-core 1.0.0's 3.1 line, refined by spark-sql-kafka 3.1.3
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "corpus", "train", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		p, err := importBytes(tc.file, detectBytes(data), data)
		if err != nil {
			t.Fatal(err)
		}
		p.factsOutsideConf()
		if p.Runtime.Spark != tc.spark || len(p.Conflicts) != 0 {
			t.Errorf("%s: spark %q (%s), conflicts %v; want %q", tc.file, p.Runtime.Spark, p.Runtime.SparkProvenance, p.Conflicts, tc.spark)
		}
	}
}
