package app

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/jobs"
)

// blockingExec runs a job until its context ends.
type blockingExec struct{}

func (blockingExec) Run(ctx context.Context, _ jobs.Job, _ io.Writer) (int, error) {
	<-ctx.Done()
	return 1, ctx.Err()
}
func (blockingExec) Kill(context.Context, jobs.Job, bool) error { return nil }

const jobProject = `name: demo
services:
  shell:
    profile: image
    image: busybox:1
    env: {N: "1"}
`

// TestUpRefusesToKillARunningJob: an up that would recreate the container
// a running job uses is refused, naming the job and the ways out; an up
// that changes nothing still runs, and --force recreates.
func TestUpRefusesToKillARunningJob(t *testing.T) {
	w := runningJobWorld(t)
	if _, err := w.open(t).Up(t.Context(), UpOptions{}); err != nil {
		t.Fatalf("an up that changes nothing was refused: %v", err)
	}
	changeJobProject(t, w)
	_, err := w.open(t).Up(t.Context(), UpOptions{})
	if err == nil || !strings.Contains(err.Error(), "job 1 (sh -c sleep 600) runs in shell") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("up over a running job: %v", err)
	}
	if _, err := w.open(t).Up(t.Context(), UpOptions{Force: true}); err != nil {
		t.Fatalf("up --force: %v", err)
	}
}

// runningJobWorld is jobProject brought up with job 1 running in its shell
// service under a live runner, which ends with the test.
func runningJobWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, jobProject, map[string]string{})
	w.eng.AddImage("busybox:1", nil)
	w.lock(t)
	if _, err := w.open(t).Up(t.Context(), UpOptions{}); err != nil {
		t.Fatal(err)
	}
	store, err := w.open(t).Jobs()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Submit(jobs.Job{Service: "shell", Command: []string{"sh", "-c", "sleep 600"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		errc <- (&jobs.Runner{Store: store, Exec: blockingExec{}, Poll: 5 * time.Millisecond, PID: os.Getpid()}).Run(ctx)
	}()
	t.Cleanup(func() { cancel(); _ = <-errc }) // the runner ends with the test, interrupted
	waitFor(t, func() bool { j, err := store.Get("1"); return err == nil && j.State == jobs.Running })
	return w
}

// changeJobProject changes jobProject's shell service so that up would
// recreate its container.
func changeJobProject(t *testing.T, w *world) {
	t.Helper()
	yaml := strings.Replace(jobProject, `N: "1"`, `N: "2"`, 1)
	if err := os.WriteFile(filepath.Join(w.dir, "devenv.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
}
