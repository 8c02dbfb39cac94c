package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/goldenfile"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/jobs"
)

// goldenJobs compares got with testdata/jobs/<name>.
func goldenJobs(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "jobs", name), got)
}

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

func TestPrintJobs(t *testing.T) {
	old := time.Local
	time.Local = time.UTC
	defer func() { time.Local = old }()
	at := func(s int) *time.Time { v := time.Date(2025, 6, 1, 12, 0, s, 0, time.UTC); return &v }
	code := func(c int) *int { return &c }
	dir := "/p"
	list := []jobs.Job{
		{ID: "1", Service: "spark", Command: []string{"spark-submit", "/workspace/etl.py", "2024"}, State: jobs.Done, ExitCode: code(0),
			Submitted: *at(0), Started: at(1), Finished: at(30), SparkUI: "http://127.0.0.1:4041", Log: "/p/.devenv/jobs/1.log"},
		{ID: "2", Service: "spark", Command: []string{"sh", "-c", "exit 3"}, State: jobs.Failed, ExitCode: code(3), Reason: "exited with code 3",
			Submitted: *at(2), Started: at(30), Finished: at(31), Log: "/p/.devenv/jobs/2.log"},
		{ID: "3", Service: "box", Command: []string{"sh", "-c", "sleep 60"}, State: jobs.Running, Submitted: *at(3), Started: at(31), Log: "/p/.devenv/jobs/3.log"},
		{ID: "4", Service: "box", Command: []string{"true"}, State: jobs.Queued, Submitted: *at(4), Log: "/elsewhere/4.log"},
	}
	var b bytes.Buffer
	printJobs(&b, list, dir)
	b.WriteString("---\n")
	printJobs(&b, nil, dir)
	goldenJobs(t, "jobs.txt", b.Bytes())
}
