package app

import (
	"fmt"
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/jobs"
)

// ListJobs is `devenv jobs`: the queue's jobs, oldest first (never nil),
// and warnings for stderr: why each job that failed or was cancelled since
// the last call ended (said once: the job records that it was), job files
// that could not be read, and jobs that wait, or look running, while no
// runner holds the queue (with what to do).
func (p *Project) ListJobs() ([]jobs.Job, []string, error) {
	store, err := p.Jobs()
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	list, err := store.List()
	if err != nil {
		warnings = append(warnings, err.Error())
	}
	if list == nil {
		list = []jobs.Job{}
	}
	warnings = append(warnings, endNotices(list, store)...)
	if store.RunnerPID() == 0 {
		warnings = append(warnings, noRunner(list, store)...)
	}
	return list, warnings, nil
}

// endNotices says once why each finished job that did not succeed ended.
func endNotices(list []jobs.Job, store *jobs.Store) []string {
	var out []string
	for _, j := range list {
		if !j.State.Final() || j.State == jobs.Done || j.Reason == "" || j.ReasonShown {
			continue
		}
		if err := store.MarkReasonShown(j.ID); err != nil {
			out = append(out, err.Error())
			continue
		}
		out = append(out, fmt.Sprintf("job %s %s: %s (devenv jobs logs %s shows its output)", j.ID, j.State, j.Reason, j.ID))
	}
	return out
}

// noRunner says what to do when jobs wait, or look running, and no
// runner holds the queue.
func noRunner(list []jobs.Job, store *jobs.Store) []string {
	var queued, orphans int
	for _, j := range list {
		switch j.State {
		case jobs.Queued:
			queued++
		case jobs.Running:
			orphans++
		}
	}
	var out []string
	if orphans > 0 {
		out = append(out, fmt.Sprintf("%d job(s) show running but their runner is gone: devenv jobs run marks them failed and runs the rest", orphans))
	}
	if queued > 0 {
		out = append(out, fmt.Sprintf("%d job(s) wait and no runner is running: start one with devenv jobs run (see %s)", queued, filepath.Join(store.Dir(), "runner.log")))
	}
	return out
}
