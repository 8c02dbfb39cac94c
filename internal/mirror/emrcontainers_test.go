package mirror

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestOpenQuote(t *testing.T) {
	for _, tc := range []struct {
		line string
		want byte
	}{
		{`spark-submit --conf a=b`, 0},
		{`--job-driver '{`, '\''},
		{`--job-driver '{` + "\n" + `"x": "'$B'"}'`, 0},
		{`--query "a == '$N' && b"`, 0},
		{`echo "it's`, '"'},
		{`echo \'x`, 0},
		{`# don't`, 0},
		{`ls # it's a comment`, 0},
		{`a=foo#'bar`, '\''},
	} {
		if got := openQuote(tc.line); got != tc.want {
			t.Errorf("openQuote(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestScriptLinesJoinQuotedWords(t *testing.T) {
	text := "a=1\naws x \\\n  --j '{\n  \"k\": 1\n}' \\\n  --o text\necho done\n"
	lines := scriptLines(text)
	if len(lines) != 4 { // a=1, the aws command, echo, the empty last line
		t.Fatalf("got %d logical lines, want 4: %+v", len(lines), lines)
	}
	if want := "aws x \n  --j '{\n  \"k\": 1\n}' \n  --o text"; lines[1].text != want || lines[1].line != 2 {
		t.Errorf("line 2 = %q (at %d), want %q", lines[1].text, lines[1].line, want)
	}
	if lines[2].text != "echo done" || lines[2].line != 7 {
		t.Errorf("line 3 = %q at %d", lines[2].text, lines[2].line)
	}
}

func TestStartJobRun(t *testing.T) {
	const driver = `--job-driver '{"sparkSubmitJobDriver": {"entryPoint": "s3://'$B'/a.jar",
  "sparkSubmitParameters": "--class X --conf spark.executor.cores=4 --conf spark.executor.instances='$N' --conf spark.executor.memory=6g"}}'`
	const overrides = `--configuration-overrides '{"applicationConfiguration": [{"classification": "spark-defaults",
  "properties": {"spark.plugins": "com.nvidia.spark.SQLPlugin", "spark.sql.adaptive.enabled": "true"}}]}'`
	for _, tc := range []struct {
		name, script                   string
		label, spark, java, cores, gpu string
		executors                      string
	}{
		{"plain", "N=47\naws emr-containers start-job-run \\\n --name x \\\n --release-label emr-6.6.0-latest \\\n " + driver + " \\\n " + overrides + "\n",
			"emr-6.6.0-latest", "3.2.0", "8", "4", "com.nvidia.spark.SQLPlugin", "47"},
		{"label from a variable, in $( )", "L=\"emr-7.12.0-latest\"\nN=8\nID=$(aws emr-containers start-job-run \\\n--release-label $L \\\n" + driver + " \\\n--query 'id' --output text)\n",
			"emr-7.12.0-latest", "3.5.", "17", "4", "", "8"},
		{"no label", "aws emr-containers start-job-run --name x " + overrides + "\n",
			"", "", "", "", "com.nvidia.spark.SQLPlugin", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := importBytes("job.sh", detectBytes([]byte(tc.script)), []byte(tc.script))
			if err != nil {
				t.Fatal(err)
			}
			r := p.Runtime
			if p.Source.Platform != "emr" || p.Source.Cloud != "aws" {
				t.Errorf("platform %q cloud %q, want emr aws", p.Source.Platform, p.Source.Cloud)
			}
			if r.Label != tc.label || !hasPrefixOrEqual(r.Spark, tc.spark) || r.Java != tc.java {
				t.Errorf("label %q spark %q java %q, want %q %q %q", r.Label, r.Spark, r.Java, tc.label, tc.spark, tc.java)
			}
			if p.Conf["spark.executor.cores"] != tc.cores || p.Conf["spark.plugins"] != tc.gpu {
				t.Errorf("confs %v", p.Conf)
			}
			if got := p.Conf["spark.executor.instances"]; got != tc.executors {
				t.Errorf("executors %q, want %q", got, tc.executors)
			}
		})
	}
}

func hasPrefixOrEqual(got, want string) bool {
	if want == "" || want[len(want)-1] != '.' {
		return got == want
	}
	return len(got) > len(want) && got[:len(want)] == want
}

// TestJSONStringWithLineBreaks: a real StartJobRun request whose
// spark.jars value is broken over lines (raw line breaks inside a JSON
// string, which JSON does not allow) is read: the breaks are read as spaces.
func TestJSONStringWithLineBreaks(t *testing.T) {
	p, err := Import(filepath.Join("testdata", "corpus", "train", "emrtests-request.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Source.Platform != "emr" || p.Runtime.Label != "emr-6.2.0-latest" || p.Runtime.Spark != "3.0.1" {
		t.Errorf("platform %q label %q spark %q, want emr emr-6.2.0-latest 3.0.1", p.Source.Platform, p.Runtime.Label, p.Runtime.Spark)
	}
	if jars := p.Conf["spark.jars"]; strings.ContainsAny(jars, "\n\r") || !strings.Contains(jars, "RedshiftJDBC.jar") {
		t.Errorf("spark.jars = %q: want the whole value, without line breaks", jars)
	}
	v, err := decodeJSON([]byte("{\n\"a\": 1,\n\"b\": x}"))
	if err == nil || !strings.HasPrefix(err.Error(), "3:") {
		t.Errorf("decodeJSON of a bad value: %v (%v); want the error at line 3", err, v)
	}
}

// TestDescribeJobRun reads what describe-job-run prints, {"jobRun": ...}
// around the run's request fields, as the request itself: a real training
// request (emrtests-request.json), bare and wrapped.
func TestDescribeJobRun(t *testing.T) {
	req, err := os.ReadFile(filepath.Join("testdata", "corpus", "train", "emrtests-request.json"))
	if err != nil {
		t.Fatal(err)
	}
	wrapped := []byte(`{"jobRun": ` + string(req) + `}`)
	bare, err := importBytes("request.json", detectBytes(req), req)
	if err != nil {
		t.Fatal(err)
	}
	run, err := importBytes("job-run.json", detectBytes(wrapped), wrapped)
	if err != nil {
		t.Fatalf("describe-job-run output: %v", err)
	}
	if run.Source.Platform != "emr" || run.Runtime.Label == "" || run.Runtime.Label != bare.Runtime.Label || run.Runtime.Spark != bare.Runtime.Spark || len(run.Conf) != len(bare.Conf) {
		t.Errorf("job run: %s label %q spark %q, %d confs; the request: %s %q %q, %d", run.Source.Platform, run.Runtime.Label, run.Runtime.Spark, len(run.Conf),
			bare.Source.Platform, bare.Runtime.Label, bare.Runtime.Spark, len(bare.Conf))
	}
}

// TestScriptLinesReadLostContinuations: indented option lines under a
// command that no backslash continues (a script copied from a page, as
// starlake's Dataproc quickstart) are read as that command's, with the
// first of them noted; a command, a comment or a heredoc line is not.
func TestScriptLinesReadLostContinuations(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
		lost       int
	}{
		{"gcloud without backslashes", "gcloud dataproc clusters create c\n  --region r\n  --num-workers 2\necho done",
			[]string{"gcloud dataproc clusters create c\n  --region r\n  --num-workers 2", "echo done"}, 2},
		{"a command after", "spark-submit app.py\n  echo --not-an-option", []string{"spark-submit app.py", "  echo --not-an-option"}, 0},
		{"not indented", "spark-submit app.py\n--conf a=b", []string{"spark-submit app.py", "--conf a=b"}, 0},
		{"a comment above", "# run it\n  --conf a=b", []string{"# run it", "  --conf a=b"}, 0},
		{"a bare --", "set\n  --", []string{"set", "  --"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := scriptLines(tc.text)
			var got []string
			for _, l := range lines {
				got = append(got, l.text)
			}
			if !slices.Equal(got, tc.want) || lines[0].lost != tc.lost {
				t.Errorf("logical lines %q (first lost at %d), want %q (%d)", got, lines[0].lost, tc.want, tc.lost)
			}
		})
	}
}
