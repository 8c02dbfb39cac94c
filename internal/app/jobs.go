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
// (a runner that finds the queue held exits at once). A runner that cannot
// be started is a warning: the job stays queued.
func (p *Project) Submit(o SubmitOptions) (jobs.Job, error) {
	service, err := p.SparkService(o.Service)
	if err != nil {
		return jobs.Job{}, err
	}
	cmd, err := p.JobCommand(o.Shell, o.Args)
	if err != nil {
		return jobs.Job{}, err
	}
	store, err := p.Jobs()
	if err != nil {
		return jobs.Job{}, err
	}
	j, err := store.Submit(jobs.Job{Service: service, Command: cmd, SparkUI: SparkUI(p.Spec.Service(service))})
	if err != nil || o.NoRunner {
		return j, err
	}
	if err := p.startRunner(store); err != nil {
		p.out.Warn("job %s is queued, but no runner could be started (%v): run devenv jobs run", j.ID, err)
	}
	return j, nil
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

// startRunner starts `devenv jobs run --background` as a detached process
// writing to .devenv/jobs/runner.log.
func (p *Project) startRunner(store *jobs.Store) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	log, err := statedir.OpenFile(store.Dir(), filepath.Join(store.Dir(), "runner.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, jobs.FileMode) // never through a link
	if err != nil {
		return err
	}
	defer func() { _ = log.Close() }()
	cmd := exec.Command(exe, "--file", p.Spec.File, "--project-dir", p.Spec.Dir, "jobs", "run", "--background")
	cmd.Dir, cmd.Stdout, cmd.Stderr = p.Spec.Dir, log, log
	cmd.SysProcAttr = jobs.Detach(nil)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
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
