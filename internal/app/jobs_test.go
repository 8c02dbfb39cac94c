package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/jobs"
)

// testProject parses a devenv.yaml written into a temporary project.
func testProject(t *testing.T, yaml string, files ...string) *spec.Project {
	t.Helper()
	dir := t.TempDir()
	for _, f := range append(files, "devenv.yaml") {
		body := "# " + f + "\n"
		if f == "devenv.yaml" {
			body = yaml
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(yaml), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const twoServices = `name: demo
services:
  box:
    profile: image
    image: debian:12
  spark:
    profile: spark-rapids
    jupyter: false
    gpu: optional
    ports: ["127.0.0.1:4041:4040"]
`

func TestJobCommand(t *testing.T) {
	p := testProject(t, twoServices, "jobs/etl.py")
	outside := filepath.Join(t.TempDir(), "x.py")
	if err := os.WriteFile(outside, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		shell   string
		args    []string
		want    string
		wantErr string
	}{
		{"a project file", "", []string{filepath.Join(p.Dir, "jobs", "etl.py"), "--day", "1"}, "spark-submit /workspace/jobs/etl.py --day 1", ""},
		{"-- after the file only separates", "", []string{filepath.Join(p.Dir, "jobs", "etl.py"), "--", "--date", "x"}, "spark-submit /workspace/jobs/etl.py --date x", ""},
		{"a later -- is the job's", "", []string{filepath.Join(p.Dir, "jobs", "etl.py"), "a", "--", "b"}, "spark-submit /workspace/jobs/etl.py a -- b", ""},
		{"a shell command", "echo hi; exit 2", nil, "sh -c echo hi; exit 2", ""},
		{"both", "true", []string{"x.py"}, "", "not both"},
		{"neither", "", nil, "", "usage: devenv submit"},
		{"outside the project", "", []string{outside}, "", "outside the project"},
		{"missing", "", []string{filepath.Join(p.Dir, "nope.py")}, "", "nope.py"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, err := New(p, Options{}).JobCommand(tt.shell, tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitcode.Of(err) != exitcode.Usage {
					t.Fatalf("err = %v (code %d), want a usage error saying %q", err, exitcode.Of(err), tt.wantErr)
				}
				return
			}
			if err != nil || strings.Join(cmd, " ") != tt.want {
				t.Fatalf("got %q %v, want %q", cmd, err, tt.want)
			}
		})
	}
}

func TestSparkUI(t *testing.T) {
	p := testProject(t, twoServices)
	if got := SparkUI(p.Service("spark")); got != "http://127.0.0.1:4041" {
		t.Errorf("spark: %q", got)
	}
	if got := SparkUI(p.Service("box")); got != "" {
		t.Errorf("box: %q", got)
	}
}

func TestJobExit(t *testing.T) {
	code := func(c int) *int { return &c }
	tests := []struct {
		job  jobs.Job
		want int
	}{
		{jobs.Job{ID: "1", State: jobs.Done, ExitCode: code(0)}, 0},
		{jobs.Job{ID: "2", State: jobs.Failed, ExitCode: code(3), Reason: "exited with code 3"}, 3},
		{jobs.Job{ID: "3", State: jobs.Failed, Reason: "service box is not running"}, 1},
		{jobs.Job{ID: "4", State: jobs.Cancelled, ExitCode: code(143)}, 1},
	}
	for _, tt := range tests {
		err := JobExit(tt.job)
		got := 0
		if err != nil {
			got = exitcode.Of(err)
		}
		if got != tt.want {
			t.Errorf("job %s: exit %d (%v), want %d", tt.job.ID, got, err, tt.want)
		}
	}
}

func TestCancelJob(t *testing.T) {
	p := New(testProject(t, twoServices), Options{})
	j, _, err := p.Submit(SubmitOptions{Shell: "true", NoRunner: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.CancelJob(j.ID)
	if err != nil || got.State != jobs.Cancelled {
		t.Fatalf("cancel a queued job: %+v %v", got, err)
	}
	if _, err := p.CancelJob(j.ID); err == nil || !strings.Contains(err.Error(), "already ended") {
		t.Errorf("cancel it again: %v", err)
	}
	if _, err := p.CancelJob("nosuch"); err == nil {
		t.Error("cancel a job that does not exist: no error")
	}
}
