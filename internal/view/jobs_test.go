package view

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/jobs"
)

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
	Jobs(&b, list, dir)
	b.WriteString("---\n")
	Jobs(&b, nil, dir)
	golden(t, "jobs.txt", b.Bytes())
}

func TestJobNotes(t *testing.T) {
	j := jobs.Job{ID: "7", Service: "spark", State: jobs.Cancelled}
	if got := Submitted(j); got != "job 7 queued on spark; follow it with: devenv jobs logs -f 7" {
		t.Errorf("Submitted: %q", got)
	}
	if got := Cancelled(j); got != "job 7 cancelled" {
		t.Errorf("Cancelled, queued: %q", got)
	}
	j.State = jobs.Running
	if got := Cancelled(j); got != "job 7: asked its runner to stop it" {
		t.Errorf("Cancelled, running: %q", got)
	}
	var b bytes.Buffer
	RunnerLog(&b)("job %s started", "7")
	stamp, rest, _ := strings.Cut(b.String(), " ")
	if _, err := time.Parse(time.RFC3339, stamp); err != nil || rest != "job 7 started\n" {
		t.Errorf("RunnerLog: %q", b.String())
	}
}
