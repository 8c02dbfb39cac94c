package remote

import "testing"

func TestJobTouched(t *testing.T) {
	tests := []struct {
		name    string
		cmd     []string
		changed []string
		want    string
	}{
		{"the job file", []string{"spark-submit", "/workspace/jobs/etl.py", "--date", "x"}, []string{"README.md", "jobs/etl.py"}, "jobs/etl.py"},
		{"a module beside it", []string{"spark-submit", "/workspace/jobs/etl.py"}, []string{"jobs/lib/util.py"}, "jobs/lib/util.py"},
		{"a module elsewhere is not", []string{"spark-submit", "/workspace/jobs/etl.py"}, []string{"tools/x.py", "jobs/notes.md"}, ""},
		{"a job at the root imports any .py", []string{"spark-submit", "/workspace/job.py"}, []string{"pkg/a.py"}, "pkg/a.py"},
		{"--py-files lists", []string{"spark-submit", "--py-files", "/workspace/deps.zip,/workspace/more.zip", "/workspace/j.py"}, []string{"more.zip"}, "more.zip"},
		{"--opt=path", []string{"spark-submit", "--properties-file=/workspace/conf/spark.conf", "/workspace/j.py"}, []string{"conf/spark.conf"}, "conf/spark.conf"},
		{"a folder covers what is under it", []string{"spark-submit", "--files", "/workspace/data", "/workspace/j.scala"}, []string{"data/x.csv"}, "data/x.csv"},
		{"a script in sh -c", []string{"sh", "-c", "cd /workspace && sh /workspace/run.sh > /workspace/out/log"}, []string{"run.sh"}, "run.sh"},
		{"deleted counts too", []string{"sh", "-c", "python '/workspace/train.py'"}, []string{"train.py"}, "train.py"},
		{"a shell job naming no file", []string{"sh", "-c", "echo hi"}, []string{"job.py"}, ""},
		{"not a prefix match of names", []string{"spark-submit", "/workspace/job.sh"}, []string{"job.sh.bak"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := JobTouched(tt.cmd, tt.changed)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("JobTouched(%q, %q) = %q %v, want %q", tt.cmd, tt.changed, got, ok, tt.want)
			}
		})
	}
}
