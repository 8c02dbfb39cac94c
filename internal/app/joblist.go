package app

import (
	"fmt"
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/jobs"
)

// ListJobs is `devenv jobs`: the queue's jobs, oldest first (never nil),
// and warnings: job files that could not be read, and jobs that wait, or
// look running, while no runner holds the queue (with what to do).
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
	if store.RunnerPID() == 0 {
		warnings = append(warnings, noRunner(list, store)...)
	}
	return list, warnings, nil
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
