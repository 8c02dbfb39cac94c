package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/jobs"
)

// runningJobs are the queue's jobs a live runner is running now; nil when
// the project never queued a job (nothing is created to find out).
func (p *Project) runningJobs() ([]jobs.Job, error) {
	dir := filepath.Join(p.StateDir(), "jobs")
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return nil, nil //nolint:nilerr // no queue (or not a directory, which Jobs refuses when it is used): no job runs
	}
	store, err := jobs.Open(dir)
	if err != nil {
		return nil, err
	}
	if store.RunnerPID() == 0 {
		return nil, nil // no runner: a job left "running" is an orphan, and devenv jobs says so
	}
	list, err := store.List()
	if err != nil {
		return nil, err
	}
	var out []jobs.Job
	for _, j := range list {
		if j.State == jobs.Running {
			out = append(out, j)
		}
	}
	return out, nil
}

// refuseKillingJobs stops an up that would recreate or remove the container
// a running job runs in (the job would die with it), naming the job and what
// to do. It asks the engine only when a job is running.
func (p *Project) refuseKillingJobs(ctx context.Context, r *run, o UpOptions) error {
	running, err := p.runningJobs()
	if err != nil || len(running) == 0 {
		return err
	}
	preview, err := r.runner.Up(ctx, r.plan.Plan, reconcile.UpOptions{Services: o.Services, NoStart: o.NoStart, DryRun: true,
		ForceRecreate: o.ForceRecreate, NoDeps: o.NoDeps, RemoveOrphans: o.RemoveOrphans})
	if err != nil {
		return err
	}
	replaced := map[string]bool{}
	for _, c := range preview.Changes {
		if c.Action == reconcile.Recreated || (c.Action == reconcile.Removed && c.Service != "") {
			replaced[c.Service] = true
		}
	}
	var lines []string
	for _, j := range running {
		if replaced[j.Service] {
			lines = append(lines, fmt.Sprintf("job %s (%s) runs in %s", j.ID, strings.Join(j.Command, " "), j.Service))
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return exitcode.Newf(exitcode.Failure, "up would recreate containers that running jobs use, and the jobs would die: %s\n"+
		"\thint: wait for them (`devenv jobs logs -f ID`), cancel them (`devenv jobs cancel ID`), or run `devenv up --force` to recreate anyway",
		strings.Join(lines, "; "))
}
