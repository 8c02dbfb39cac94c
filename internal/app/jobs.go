package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/jobs"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/statedir"
)

// SubmitOptions steer Submit.
type SubmitOptions struct {
	Service  string   // default: the first spark-rapids service
	Shell    string   // run sh -c Shell instead of spark-submit of a file
	Args     []string // job.py [args...]
	NoRunner bool     // only queue; do not start a background runner
	// Runner is the command line that runs the queue in the background;
	// nil: this devenv's `jobs run --background`.
	Runner []string
}

// Jobs is the project's job queue under .devenv/jobs.
func (p *Project) Jobs() (*jobs.Store, error) {
	if err := p.ensureStateDir(); err != nil {
		return nil, err
	}
	dir := filepath.Join(p.StateDir(), "jobs")
	if err := statedir.MkdirAll(p.StateDir(), dir); err != nil { // job files and logs never go through a link
		return nil, err
	}
	return jobs.Open(dir)
}

// Submit queues a job and, unless told not to, starts a background runner
// (a runner that finds the queue held exits at once) and waits until a
// runner holds the queue or the one it started has ended, so that what
// devenv jobs says next never races the start. It returns warnings for the
// caller to print after the job's own notice: a runner that could not be
// started, or ended leaving the job queued (the job stays queued).
func (p *Project) Submit(o SubmitOptions) (jobs.Job, []string, error) {
	service, err := p.SparkService(o.Service)
	if err != nil {
		return jobs.Job{}, nil, err
	}
	cmd, err := p.JobCommand(o.Shell, o.Args)
	if err != nil {
		return jobs.Job{}, nil, err
	}
	store, err := p.Jobs()
	if err != nil {
		return jobs.Job{}, nil, err
	}
	j, err := store.Submit(jobs.Job{Service: service, Command: cmd, SparkUI: SparkUI(p.Spec.Service(service))})
	if err != nil || o.NoRunner {
		return j, nil, err
	}
	ended, err := p.spawnRunner(store, o.Runner)
	if err != nil {
		return j, []string{fmt.Sprintf("job %s is queued, but no runner could be started (%v): run devenv jobs run", j.ID, err)}, nil
	}
	if w := awaitRunner(store, j.ID, ended); w != "" {
		return j, []string{w}, nil
	}
	return j, nil, nil
}

// runnerStartLimit bounds how long Submit waits for the runner it started
// to take the queue; past it, the runner is left to it (a loaded machine).
const runnerStartLimit = 30 * time.Second

// awaitRunner waits until a runner holds the queue, the job has left the
// queue, or the runner that was started has ended; for the last, it says
// so when the job is still queued.
func awaitRunner(store *jobs.Store, id string, ended <-chan error) string {
	limit := time.NewTimer(runnerStartLimit)
	defer limit.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if store.RunnerPID() != 0 || !stillQueued(store, id) {
			return ""
		}
		select {
		case err := <-ended:
			if store.RunnerPID() != 0 || !stillQueued(store, id) {
				return ""
			}
			why := "it exited"
			if err != nil {
				why = err.Error()
			}
			return fmt.Sprintf("job %s is queued, but the runner devenv started ended (%s) without running it: see %s, or run devenv jobs run",
				id, why, filepath.Join(store.Dir(), "runner.log"))
		case <-limit.C:
			return ""
		case <-tick.C:
		}
	}
}

func stillQueued(store *jobs.Store, id string) bool {
	j, err := store.Get(id)
	return err == nil && j.State == jobs.Queued
}

// JobCommand is sh -c SHELL, else spark-submit of a project file.
func (p *Project) JobCommand(shell string, a []string) ([]string, error) {
	const usage = "usage: devenv submit [--service S] job.py [args...] or devenv submit [--service S] --cmd 'shell command'"
	switch {
	case shell != "" && len(a) > 0:
		return nil, exitcode.Newf(exitcode.Usage, "%s: give --cmd or a job file, not both (got %q)", usage, strings.Join(a, " "))
	case shell != "":
		return []string{"sh", "-c", shell}, nil
	case len(a) == 0:
		return nil, exitcode.Newf(exitcode.Usage, usage)
	}
	file, err := p.WorkspacePath(a[0])
	if err != nil {
		return nil, err
	}
	rest := a[1:]
	if len(rest) > 0 && rest[0] == "--" { // job.py -- --date x: the -- only separates
		rest = rest[1:]
	}
	return append([]string{"spark-submit", file}, rest...), nil
}

// WorkspacePath maps a file of the project to its path in the containers,
// where the project is mounted at /workspace. Files outside the project
// are refused: the containers cannot see them.
func (p *Project) WorkspacePath(file string) (string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", exitcode.Newf(exitcode.Usage, "%s: %v", file, err)
	}
	rel, ok := projpath.Inside(p.Spec.Dir, abs)
	if !ok {
		return "", exitcode.Newf(exitcode.Usage, "%s is outside the project %s: the containers only see the project (at %s); copy the file into it", file, p.Spec.Dir, plan.Workspace)
	}
	return path.Join(plan.Workspace, rel), nil
}

// SparkUI is the Spark UI a service publishes (container port 4040), if any.
func SparkUI(s *spec.Service) string {
	if s == nil {
		return ""
	}
	for _, pt := range s.Ports {
		if pt.Container != 4040 {
			continue
		}
		host, ip := pt.Host, pt.HostIP
		if host == 0 {
			host = pt.Container
		}
		if ip == "" || ip == "0.0.0.0" {
			ip = "127.0.0.1"
		}
		return fmt.Sprintf("http://%s:%d", ip, host)
	}
	return ""
}

// startRunner starts a background runner and leaves it to run (watch's
// job restarts).
func (p *Project) startRunner(store *jobs.Store) error {
	_, err := p.spawnRunner(store, nil)
	return err
}

// spawnRunner starts `devenv jobs run --background` (or argv) as a
// detached process writing to .devenv/jobs/runner.log; the channel gets
// its end.
func (p *Project) spawnRunner(store *jobs.Store, argv []string) (<-chan error, error) {
	if len(argv) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		argv = []string{exe, "--file", p.Spec.File, "--project-dir", p.Spec.Dir, "jobs", "run", "--background"}
	}
	log, err := statedir.OpenFile(store.Dir(), filepath.Join(store.Dir(), "runner.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, jobs.FileMode) // never through a link
	if err != nil {
		return nil, err
	}
	defer func() { _ = log.Close() }()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = p.Spec.Dir, log, log
	cmd.SysProcAttr = jobs.Detach(nil)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }() // reaped while devenv runs; detached, it outlives devenv
	return ended, nil
}

// RunJobs runs the queue until it is empty; jobs.ErrBusy when another
// runner holds it. say reports progress.
func (p *Project) RunJobs(ctx context.Context, say func(format string, a ...any)) error {
	eng, err := p.Engine(ctx)
	if err != nil {
		return err
	}
	store, err := p.Jobs()
	if err != nil {
		return err
	}
	container := func(svc string) string { return p.containerOf(ctx, eng, svc) }
	resources := func(ctx context.Context, service string) jobs.Resources {
		st, err := eng.Inspect(ctx, container(service))
		if err != nil {
			return jobs.Resources{Service: service, Unknown: true} // counts as sharing every GPU
		}
		return jobs.ResourcesOf(service, st)
	}
	r := &jobs.Runner{Store: store, Say: say, Resources: resources, Exec: jobs.EngineExecutor{Eng: eng, Container: container}}
	return r.Run(ctx)
}

// CancelJob cancels a queued job at once, and a running one by asking its
// runner to stop it; a finished job cannot be cancelled.
func (p *Project) CancelJob(id string) (jobs.Job, error) {
	store, err := p.Jobs()
	if err != nil {
		return jobs.Job{}, err
	}
	return store.Cancel(id)
}

// FollowJob copies a job's log to w; with follow it keeps copying until
// the job ends and returns its exit (JobExit).
func (p *Project) FollowJob(ctx context.Context, id string, follow bool, w io.Writer) error {
	store, err := p.Jobs()
	if err != nil {
		return err
	}
	j, err := store.Get(id)
	if err != nil {
		return err
	}
	f, err := store.OpenLog(j.ID, os.O_RDONLY)
	if err != nil {
		return fmt.Errorf("job %s has no readable log: %w", j.ID, err)
	}
	defer func() { _ = f.Close() }()
	if _, err := io.Copy(w, f); err != nil || !follow {
		return err
	}
	for {
		j, err := store.Get(id)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, f); err != nil {
			return err
		}
		if j.State.Final() {
			return JobExit(j)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// JobExit is a finished job's outcome as devenv's exit: its own exit code
// when it failed with one devenv can pass on, else 1.
func JobExit(j jobs.Job) error {
	switch {
	case j.State == jobs.Done:
		return nil
	case j.ExitCode != nil && *j.ExitCode > 0 && *j.ExitCode < 126:
		return exitcode.With(*j.ExitCode, fmt.Errorf("job %s %s: %s", j.ID, j.State, j.Reason))
	}
	return exitcode.Newf(exitcode.Failure, "job %s %s: %s", j.ID, j.State, j.Reason)
}

// IsBusy is true when another runner already holds the queue.
func IsBusy(err error) bool { return errors.Is(err, jobs.ErrBusy) }
