package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleLoads reads the versions a job script loads with Environment
// Modules: a real Slurm job (umich-arc's batch-job-with-R.sh loads
// spark/3.5 and R), and the forms of the command.
func TestModuleLoads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "scripts", "umarc-batch-job-with-R.sh"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := importBytes("batch-job-with-R.sh", detectBytes(data), data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Runtime.Spark != "3.5.0" || !strings.Contains(p.Runtime.SparkProvenance, "module load spark/3.5") || p.Runtime.Python != "" {
		t.Errorf("spark %q (%s), python %q; want the 3.5 line from module load, no Python", p.Runtime.Spark, p.Runtime.SparkProvenance, p.Runtime.Python)
	}
	for _, tc := range []struct {
		line                string
		spark, python, java string
	}{
		{"module load python/3.12 openjdk/17.0.2 spark/3.4.1\nspark-submit app.py\n", "3.4.1", "3.12", "17"},
		{"ml spark/3.3.2 Python/3.10.4-GCCcore-11.3.0\nspark-submit app.py\n", "3.3.2", "3.10.4", ""},
		{"module add java/1.8.0\nspark-submit app.py\n", "", "", "8"},
		{"module load spark/$V\nspark-submit app.py\n", "", "", ""},
		{"module avail spark/3.5\nspark-submit app.py\n", "", "", ""},
		// EasyBuild's Spark modules name the Java or Scala they are built with
		{"module load Spark/2.4.0-Hadoop-2.7-Java-1.8\nspark-submit app.py\n", "2.4.0", "", "8"},
	} {
		p, err := importBytes("job.sh", FormatSparkSubmit, []byte(tc.line))
		if err != nil {
			t.Fatal(err)
		}
		if r := p.Runtime; r.Spark != tc.spark || r.Python != tc.python || r.Java != tc.java || len(p.Warnings) > 0 {
			t.Errorf("%q: spark %q python %q java %q (warnings %q); want %q %q %q", tc.line, r.Spark, r.Python, r.Java, p.Warnings, tc.spark, tc.python, tc.java)
		}
	}
	for module, scala := range map[string]string{
		"Spark/3.5.1-foss-2022b-Scala-2.13": "2.13",
		"Spark/2.4.0-Hadoop-2.7-Java-1.8":   "2.11", // Apache's pre-built 2.4.0 package
		"Spark/3.3.1-foss-2022a":            "",
	} {
		p, err = importBytes("job.sh", FormatSparkSubmit, []byte("module load "+module+"\nspark-submit app.py\n"))
		if err != nil || p.Runtime.Scala != scala {
			t.Errorf("%s: scala %q (%s, %v); want %q", module, p.Runtime.Scala, p.Runtime.ScalaProvenance, err, scala)
		}
	}
}

// TestScriptEnv: the Python and Java a job script sets for its
// spark-submit (exported, or on the command line itself) are read; what
// it sets after the submit is not.
func TestScriptEnv(t *testing.T) {
	for _, tc := range []struct{ script, python, java string }{
		{"export PYSPARK_PYTHON=python3\nspark-submit app.py\n", "3", ""},
		{"PYSPARK_PYTHON=/usr/bin/python3.6 spark-submit --master yarn app.py\n", "3.6", ""},
		{"export JAVA_HOME=/usr/lib/jvm/java-11-openjdk-amd64\nspark-submit app.py\n", "", "11"},
		{"spark-submit app.py\nexport PYSPARK_PYTHON=python3.9\n", "", ""},
	} {
		p, err := importBytes("job.sh", FormatSparkSubmit, []byte(tc.script))
		if err != nil {
			t.Fatal(err)
		}
		p.factsOutsideConf()
		if p.Runtime.Python != tc.python || p.Runtime.Java != tc.java {
			t.Errorf("%q: python %q java %q; want %q %q", tc.script, p.Runtime.Python, p.Runtime.Java, tc.python, tc.java)
		}
	}
}
