package mirror

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestShellWordsCommandSubstitution(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []string
	}{
		{"unquoted, with spaces and quotes inside", `--jars $(echo /opt/*.jar | tr ' ' ',') app.jar`,
			[]string{"--jars", "$(echo /opt/*.jar | tr ' ' ',')", "app.jar"}},
		{"inside a --conf value", `--conf spark.driver.extraJavaOptions="-Dx=$(cat "a b.txt")" x`,
			[]string{"--conf", `spark.driver.extraJavaOptions=-Dx=$(cat "a b.txt")`, "x"}},
		{"nested", `ID=$(aws emr list --query "$(echo (a))") next`, []string{`ID=$(aws emr list --query "$(echo (a))")`, "next"}},
		{"a ) inside quotes does not close it", `a=$(echo ')' x) b`, []string{`a=$(echo ')' x)`, "b"}},
		{"backticks", "--name `date +%s` x", []string{"--name", "`date +%s`", "x"}},
		{"unterminated: split as words", `a $(echo b`, []string{"a", "$(echo", "b"}},
		{"a plain $VAR", `--master $MASTER x`, []string{"--master", "$MASTER", "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := shellWords(tc.line)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("shellWords(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
			}
		})
	}
}

// TestCommandSubstitutionScripts reads real scripts whose values are
// command substitutions: the option keeps the whole substitution, and a
// variable assigned one stays unknown (not its first word pasted in).
func TestCommandSubstitutionScripts(t *testing.T) {
	for _, tc := range []struct {
		file, key, want string
	}{
		{"scripts/sparknow-spark-submit.sh", "spark.jars", "$(echo /opt/spark-apps/*.jar | tr ' ' ',')"},
		{"scripts/sparknow-spark-submit.sh", "spark.cores.max", "1"},
		{"scripts/emrstrm-qubole-kinesis_submit.sh", "spark.kubernetes.container.image", "$ACCOUNT_ID.dkr.ecr.$AWS_REGION.amazonaws.com/emr6.5_custom_boto3:latest"},
		{"scripts/emrstrm-qubole-kinesis_submit.sh", "spark.cleaner.referenceTracking.cleanCheckpoints", "true"},
	} {
		t.Run(tc.file+" "+tc.key, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "real", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			p, err := importBytes(filepath.Base(tc.file), detectBytes(data), data)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Conf[tc.key]; got != tc.want {
				t.Errorf("%s = %q, want %q", tc.key, got, tc.want)
			}
		})
	}
}

// TestQuotedSubmit reads a real script whose spark-submit is Charmed
// Spark's spark-client.spark-submit, quoted as the command of bash -c in
// a kubectl exec: its confs are read, and its spark.kubernetes.* confs
// name the platform the client's own master runs on.
func TestQuotedSubmit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "scripts", "charmed-integration-tests.sh"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := importBytes("integration-tests.sh", detectBytes(data), data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Source.Platform != "kubernetes" || p.Conf["spark.kubernetes.executor.request.cores"] != "100m" {
		t.Errorf("platform %q, confs %v; want kubernetes and the first spark-submit's confs", p.Source.Platform, p.Conf)
	}
}
