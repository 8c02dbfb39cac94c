package mirror

import (
	"strings"
	"testing"
)

// TestJobDriverFromCatHeredoc: the JSON a job script builds with a heredoc
// read by a command substitution, assigned to a variable or passed inline,
// is read as the shell passes it: its variables expanded (not when the
// heredoc's word is quoted), its line numbers kept.
func TestJobDriverFromCatHeredoc(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		cores        int
		memMB        int64
		label, conf  string
	}{
		{"assigned, then passed quoted", `#!/bin/bash
APP_ID=00abc
CORES=2
JOB_DRIVER=$(cat <<EOF
{
  "sparkSubmit": {
    "entryPoint": "s3://bucket/jobs/etl.py",
    "sparkSubmitParameters": "--conf spark.executor.cores=${CORES} --conf spark.executor.memory=4g"
  }
}
EOF
)
aws emr-serverless start-job-run \
  --application-id "$APP_ID" \
  --job-driver "$JOB_DRIVER"
`, 2, 4096, "", ""},
		{"inline in double quotes, word quoted", `aws emr-containers start-job-run \
  --virtual-cluster-id abc \
  --release-label emr-6.15.0-latest \
  --job-driver "$(cat <<'EOF'
{
  "sparkSubmitJobDriver": {
    "entryPoint": "s3://bucket/app.py",
    "sparkSubmitParameters": "--conf spark.executor.cores=4 --conf spark.app.tag=$NOT_EXPANDED"
  }
}
EOF
)" \
  --name nightly
`, 4, 0, "emr-6.15.0-latest", "$NOT_EXPANDED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Import(writeTemp(t, "job.sh", []byte(tc.script)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			tp := p.Topology
			if tp.ExecutorCores != tc.cores || tp.ExecutorMemoryMB != tc.memMB || p.Runtime.Label != tc.label {
				t.Errorf("executor cores %d, memory %d MB, label %q; want %d, %d, %q (warnings %q)",
					tp.ExecutorCores, tp.ExecutorMemoryMB, p.Runtime.Label, tc.cores, tc.memMB, tc.label, p.Warnings)
			}
			if tc.conf != "" && p.Conf["spark.app.tag"] != tc.conf {
				t.Errorf("spark.app.tag = %q, want %q (a quoted heredoc expands nothing)", p.Conf["spark.app.tag"], tc.conf)
			}
		})
	}
	// the lines after a substituted heredoc keep their numbers
	text := "X=$(cat <<EOF\na\nb\nEOF\n)\nspark-submit app.py\n"
	if got := strings.Count(inlineCatHeredocs(text), "\n"); got != strings.Count(text, "\n") {
		t.Errorf("the script has %d lines after the substitution, %d before", got, strings.Count(text, "\n"))
	}
}
