package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/devenv-dev/devenv/internal/filelock"
)

// Executor runs a job's command in its service and stops it on request.
type Executor interface {
	// Run runs j.Command in j.Service, writing its output to out, and
	// returns its exit code. An error means it could not be run or followed.
	Run(ctx context.Context, j Job, out io.Writer) (int, error)
	// Kill asks a running (or orphaned) job's processes, its whole
	// process group, to stop: SIGTERM, or SIGKILL when force.
	Kill(ctx context.Context, j Job, force bool) error
}

// Runner runs a project's queue. Jobs whose Resources conflict run one after
// another in submission order; others run side by side.
type Runner struct {
	Store *Store
	Exec  Executor
	// Resources says what a job on service holds; nil treats every job as
	// sharing with every other.
	Resources func(ctx context.Context, service string) Resources
	// Poll is how often the queue is re-read for new and cancelled jobs.
	Poll time.Duration
	// KillGrace is how long a cancelled job may take to stop after
	// SIGTERM before its process group is killed (SIGKILL), and then how
	// long the runner waits for that before it stops following the job.
	KillGrace time.Duration
	// Say reports what the runner does, for people; may be nil.
	Say func(format string, args ...any)
	// PID is recorded on the jobs this runner runs; os.Getpid() when 0.
	PID int

	warned map[string]bool // warnings already said, so each is said once
}

type active struct {
	job     Job
	res     Resources
	cancel  context.CancelFunc
	ended   chan struct{} // closed when Exec.Run has returned
	killing bool
	forced  atomic.Bool // SIGKILL was sent: the job did not stop on SIGTERM
}

type outcome struct {
	id   string
	code int
	err  error
}

// Run runs the queue until nothing is queued or running, then returns nil.
// It returns ErrBusy (wrapped with the other runner's pid) when another
// runner holds the queue. Jobs a dead runner left running are marked failed
// first. When ctx ends, running jobs are stopped and marked failed, queued
// ones stay queued, and ctx's error is returned.
func (r *Runner) Run(ctx context.Context) error {
	r.defaults()
	lock, err := r.acquire()
	if err != nil {
		return err
	}
	for {
		stuck, err := r.drain(ctx)
		_ = lock.Release()
		if err != nil {
			return err
		}
		// A job submitted while this runner was finishing found the lock
		// held and started no runner: look once more after letting go.
		// Jobs this drain could not start are not looked at again, so a
		// job that cannot start never makes the runner spin.
		if !r.anyQueued(stuck) {
			return nil
		}
		if lock, err = r.acquire(); err != nil {
			if errors.Is(err, ErrBusy) {
				return nil
			}
			return err
		}
	}
}

func (r *Runner) defaults() {
	if r.Poll <= 0 {
		r.Poll = 500 * time.Millisecond
	}
	if r.KillGrace <= 0 {
		r.KillGrace = 10 * time.Second
	}
	if r.PID == 0 {
		r.PID = os.Getpid()
	}
	if r.Say == nil {
		r.Say = func(string, ...any) {}
	}
	r.warned = map[string]bool{}
}

// warnOnce says a warning the first time it comes up: the queue is re-read
// every Poll, and a broken job file must not be reported each time.
func (r *Runner) warnOnce(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !r.warned[msg] {
		r.warned[msg] = true
		r.Say("warning: %s", msg)
	}
}

const runnerCommand = "devenv jobs run"

// acquire takes runner.lock; its holder file names this runner. Another
// runner holding it is ErrBusy at once; anything else holding it (a
// RunnerPID probe of `devenv jobs`, which writes no holder file) is waited
// for a moment, so a probe never turns a runner away.
func (r *Runner) acquire() (*filelock.Lock, error) {
	path := filepath.Join(r.Store.dir, "runner.lock")
	opt := filelock.Options{PID: r.PID, Command: runnerCommand}
	l, err := filelock.TryAcquire(path, opt)
	if !errors.Is(err, filelock.ErrHeld) {
		return l, err
	}
	if h := filelock.ReadHolder(path); h.Command != runnerCommand {
		opt.Timeout, opt.Poll = 2*time.Second, 5*time.Millisecond
		if l, err = filelock.Acquire(context.Background(), path, opt); err == nil {
			return l, nil
		}
	}
	if h := filelock.ReadHolder(path); h.PID != 0 {
		return nil, fmt.Errorf("%w (%s)", ErrBusy, h)
	}
	return nil, ErrBusy
}

// RunnerPID returns the pid of the runner holding the queue, or 0 when none
// does. It probes the lock without a holder file, for as short a time as it
// can, and a runner starting meanwhile waits for it (see acquire).
func (s *Store) RunnerPID() int {
	path := filepath.Join(s.dir, "runner.lock")
	l, err := filelock.TryAcquire(path, filelock.Options{NoHolder: true})
	if err == nil {
		_ = l.Release()
		return 0
	}
	return filelock.ReadHolder(path).PID
}

// anyQueued reports whether a job other than those in skip is queued.
func (r *Runner) anyQueued(skip map[string]bool) bool {
	list, _ := r.Store.List()
	for _, j := range list {
		if j.State == Queued && !skip[j.ID] {
			return true
		}
	}
	return false
}

// drain runs jobs until none is queued or running, or ctx ends (its error
// is returned). It returns the queued jobs it could not start.
func (r *Runner) drain(ctx context.Context) (map[string]bool, error) {
	r.recoverOrphans(ctx)
	running := map[string]*active{}
	stuck := map[string]bool{}
	done := make(chan outcome)
	tick := time.NewTicker(r.Poll)
	defer tick.Stop()
	for {
		// Checked before anything starts: a job ending as Ctrl-C arrives
		// must not let the next job start under a cancelled context.
		if ctx.Err() != nil {
			return stuck, r.stopAll(ctx, running, done)
		}
		list, err := r.Store.List()
		if err != nil {
			r.warnOnce("%v", err)
		}
		r.handleCancels(ctx, list, running)
		r.startReady(ctx, list, running, stuck, done)
		if len(running) == 0 {
			return stuck, ctx.Err()
		}
		select {
		case o := <-done:
			r.finish(o, running, ctx.Err())
		case <-tick.C:
		case <-ctx.Done():
		}
	}
}

// stopAll cancels the running jobs, records how each ended and returns ctx's error.
func (r *Runner) stopAll(ctx context.Context, running map[string]*active, done <-chan outcome) error {
	for _, a := range running {
		a.cancel()
	}
	for len(running) > 0 {
		r.finish(<-done, running, ctx.Err())
	}
	return ctx.Err()
}

// recoverOrphans marks failed the jobs a runner that is gone left running
// (this runner holds the lock, so no other runner can be running them) and
// asks their processes to stop.
func (r *Runner) recoverOrphans(ctx context.Context) {
	list, _ := r.Store.List()
	for _, j := range list {
		if j.State != Running {
			continue
		}
		reason := fmt.Sprintf("the job runner (pid %d) ended while the job ran; its output up to then is in %s", j.RunnerPID, j.Log)
		if r.Store.alive(j.RunnerPID) {
			reason = fmt.Sprintf("the job runner (pid %d) stopped running the queue while the job ran", j.RunnerPID)
		}
		if _, err := r.Store.update(j.ID, func(s *Job) error {
			if s.State != Running {
				return errSkip
			}
			s.State, s.Finished, s.Reason = Failed, ptr(r.Store.now().UTC()), reason
			return nil
		}); err == nil {
			r.Say("job %s failed: %s", j.ID, reason)
			kctx, cancel := context.WithTimeout(ctx, r.KillGrace)
			_ = r.Exec.Kill(kctx, j, true) // nobody follows it any more: no grace
			cancel()
		}
	}
}

// handleCancels stops running jobs whose cancellation was requested.
func (r *Runner) handleCancels(ctx context.Context, list []Job, running map[string]*active) {
	for _, j := range list {
		a := running[j.ID]
		if a == nil || !j.CancelRequested || a.killing {
			continue
		}
		a.killing, a.job.CancelRequested = true, true
		r.Say("job %s: cancelling", j.ID)
		go r.kill(ctx, a)
	}
}

// kill asks a's process group to stop (SIGTERM), again every Poll until
// the job ends: a cancel that comes as the job starts may reach Exec.Kill
// before the process exists. After KillGrace the group is killed
// (SIGKILL, recorded on the job), and after another KillGrace (or when
// ctx ends) the runner stops following the job.
func (r *Runner) kill(ctx context.Context, a *active) {
	defer a.cancel()
	if r.signalUntilEnded(ctx, a, false) {
		return
	}
	a.forced.Store(true)
	r.Say("job %s did not stop within %s of SIGTERM: killing its processes (SIGKILL)", a.job.ID, r.KillGrace)
	r.signalUntilEnded(ctx, a, true)
}

// signalUntilEnded signals a's job every Poll for KillGrace; it reports
// whether the job ended (or ctx did) meanwhile.
func (r *Runner) signalUntilEnded(ctx context.Context, a *active, force bool) bool {
	grace := time.NewTimer(r.KillGrace)
	defer grace.Stop()
	tick := time.NewTicker(r.Poll)
	defer tick.Stop()
	for {
		kctx, cancel := context.WithTimeout(ctx, r.KillGrace)
		_ = r.Exec.Kill(kctx, a.job, force)
		cancel()
		select {
		case <-a.ended:
			return true
		case <-ctx.Done():
			return true
		case <-grace.C:
			return false
		case <-tick.C:
		}
	}
}

// startReady starts, in submission order, every queued job that conflicts
// with no running job and no earlier job still waiting.
func (r *Runner) startReady(ctx context.Context, list []Job, running map[string]*active, stuck map[string]bool, done chan<- outcome) {
	var waiting []Resources
	resOf := map[string]Resources{}
	for _, j := range list {
		if j.State != Queued {
			continue
		}
		res, ok := resOf[j.Service]
		if !ok {
			res = r.resources(ctx, j.Service)
			resOf[j.Service] = res
		}
		if conflictsAny(res, waiting) || conflictsAny(res, held(running)) {
			waiting = append(waiting, res)
			continue
		}
		if stuck[j.ID] {
			continue
		}
		if a := r.start(ctx, j, res, done); a != nil {
			running[j.ID] = a
		} else if got, err := r.Store.Get(j.ID); err != nil || got.State == Queued {
			stuck[j.ID] = true
		}
	}
}

func (r *Runner) resources(ctx context.Context, service string) Resources {
	if r.Resources == nil {
		return Resources{Service: service, Unknown: true}
	}
	return r.Resources(ctx, service)
}

func held(running map[string]*active) []Resources {
	out := make([]Resources, 0, len(running))
	for _, a := range running {
		out = append(out, a.res)
	}
	return out
}

func conflictsAny(r Resources, others []Resources) bool {
	for _, o := range others {
		if r.Conflicts(o) {
			return true
		}
	}
	return false
}

// start marks j running and runs it in the background; nil when j is no
// longer queued (cancelled meanwhile) or could not be started.
func (r *Runner) start(ctx context.Context, j Job, res Resources, done chan<- outcome) *active {
	j, err := r.Store.update(j.ID, func(s *Job) error {
		if s.State != Queued || ctx.Err() != nil {
			return errSkip
		}
		s.State, s.Started, s.RunnerPID = Running, ptr(r.Store.now().UTC()), r.PID
		return nil
	})
	if err != nil {
		if !errors.Is(err, errSkip) {
			r.warnOnce("job %s could not be started: %v", j.ID, err)
		}
		return nil
	}
	log, err := r.Store.OpenLog(j.ID, os.O_CREATE|os.O_WRONLY|os.O_APPEND)
	if err != nil {
		r.finishJob(j.ID, -1, fmt.Errorf("cannot open its log: %w", err), nil)
		return nil
	}
	r.Say("job %s started on %s: %s", j.ID, j.Service, strings.Join(j.Command, " "))
	jctx, cancel := context.WithCancel(ctx)
	a := &active{job: j, res: res, cancel: cancel, ended: make(chan struct{})}
	go func() {
		code, err := r.Exec.Run(jctx, j, log)
		_ = log.Close()
		close(a.ended)
		done <- outcome{id: j.ID, code: code, err: err}
	}()
	return a
}

func (r *Runner) finish(o outcome, running map[string]*active, interrupted error) {
	a := running[o.id]
	delete(running, o.id)
	forced := false
	if a != nil {
		a.cancel()
		forced = a.forced.Load()
	}
	r.finishJobHow(o.id, o.code, o.err, interrupted, forced)
}

// finishJob records how a job ended.
func (r *Runner) finishJob(id string, code int, runErr, interrupted error) {
	r.finishJobHow(id, code, runErr, interrupted, false)
}

// finishJobHow records how a job ended; forced says the runner had to
// SIGKILL it after SIGTERM did not stop it.
func (r *Runner) finishJobHow(id string, code int, runErr, interrupted error, forced bool) {
	j, err := r.Store.update(id, func(s *Job) error {
		s.Finished = ptr(r.Store.now().UTC())
		if code >= 0 {
			s.ExitCode = ptr(code)
		}
		switch {
		case s.CancelRequested && forced:
			s.State, s.Reason = Cancelled, fmt.Sprintf("cancelled by the user; it did not stop within %s of SIGTERM, so its processes were killed (SIGKILL)", r.KillGrace)
		case s.CancelRequested:
			s.State, s.Reason = Cancelled, "cancelled by the user"
		case interrupted != nil:
			s.State, s.Reason = Failed, "the job runner was interrupted while the job ran"
		case runErr != nil:
			s.State, s.Reason = Failed, runErr.Error()
		case code != 0:
			s.State, s.Reason = Failed, exitReason(code)
		default:
			s.State = Done
		}
		return nil
	})
	if err != nil {
		r.Say("warning: job %s: cannot record its end: %v", id, err)
		return
	}
	r.Say("job %s %s%s", id, j.State, reasonSuffix(j))
}

// exitReason says why a job that nobody cancelled ended with code: a
// signal's death (128 + its number, as the engine reports it) is named
// with what usually sends it.
func exitReason(code int) string {
	switch code {
	case 137:
		return "killed by SIGKILL (exit code 137): its container was stopped, recreated or removed while it ran, or it ran out of memory (see devenv logs --diagnose)"
	case 143:
		return "killed by SIGTERM (exit code 143): its container was stopped or restarted while it ran, or something in it stopped the job"
	case 130:
		return "interrupted by SIGINT (exit code 130)"
	}
	if code > 128 && code < 128+65 {
		return fmt.Sprintf("killed by signal %d (exit code %d)", code-128, code)
	}
	return fmt.Sprintf("exited with code %d", code)
}

func reasonSuffix(j Job) string {
	if j.Reason == "" {
		return ""
	}
	return ": " + j.Reason
}
