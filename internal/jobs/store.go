package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/internal/statedir"

	"github.com/hashicorp/go-multierror"

	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/filelock"
)

// ErrNoJob is returned for a job ID the queue does not know.
var ErrNoJob = errors.New("no such job")

// ErrBusy is returned by Runner.Run when another runner holds the queue.
var ErrBusy = errors.New("another job runner is already running this project's queue")

var (
	errSkip = errors.New("skip")
)

// Store is a project's job queue on disk: <dir>/<id>.json and <dir>/<id>.log
// per job, state.lock serialising changes to job files, runner.lock held by
// the one runner working on the queue. Job files and logs are FileMode:
// commands carry the user's arguments and logs the jobs' output.
type Store struct {
	dir string
	// now is the clock; tests set it.
	now func() time.Time
	// alive tells whether a runner process still exists; tests set it.
	alive func(pid int) bool
}

// FileMode is the mode of the queue's job files, logs and runner log.
const FileMode = 0o600

// Open returns the queue kept in dir (usually <project>/.devenv/jobs),
// creating the directory.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the job directory %s: %w", dir, err)
	}
	return &Store{dir: dir, now: time.Now, alive: processAlive}, nil
}

// Dir is the directory holding the queue.
func (s *Store) Dir() string { return s.dir }

// LogPath is where job id's output is written.
func (s *Store) LogPath(id string) string { return filepath.Join(s.dir, id+".log") }

// OpenLog opens job id's log at LogPath, whatever the job file says its log
// is, refusing a log that is a symbolic link (it could lead to any file the
// user can read or write).
func (s *Store) OpenLog(id string, flag int) (*os.File, error) {
	f, err := statedir.OpenFile(s.dir, s.LogPath(id), flag, FileMode)
	if err != nil {
		return nil, fmt.Errorf("job %s's log: %w", id, err)
	}
	return f, nil
}

func (s *Store) jobPath(id string) string { return filepath.Join(s.dir, id+".json") }

// withLock runs fn while holding the queue's state lock.
func (s *Store) withLock(fn func() error) error {
	// Held for milliseconds at a time; the timeout only keeps a wedged
	// holder from hanging every jobs command.
	l, err := filelock.Acquire(context.Background(), filepath.Join(s.dir, "state.lock"),
		filelock.Options{Timeout: time.Minute, Poll: 5 * time.Millisecond})
	if err != nil {
		return fmt.Errorf("job queue %s: %w", s.dir, err)
	}
	defer func() { _ = l.Release() }()
	return fn()
}

// Submit adds j to the queue with the next free ID and returns it as stored.
// Service and Command must be set; the rest is filled in.
func (s *Store) Submit(j Job) (Job, error) {
	if j.Service == "" || len(j.Command) == 0 {
		return Job{}, fmt.Errorf("a job needs a service and a command")
	}
	err := s.withLock(func() error {
		next, err := s.nextID()
		if err != nil {
			return err
		}
		j.ID = strconv.Itoa(next)
		j.State, j.Submitted, j.Log = Queued, s.now().UTC(), s.LogPath(j.ID)
		j.ExitCode, j.Started, j.Finished, j.RunnerPID, j.Reason, j.CancelRequested, j.ReasonShown = nil, nil, nil, 0, "", false, false
		log, err := s.OpenLog(j.ID, os.O_CREATE|os.O_WRONLY|os.O_TRUNC) // never through a link
		if err != nil {
			return fmt.Errorf("cannot create the job's log %s: %w", j.Log, err)
		}
		_ = log.Close()
		return s.write(j)
	})
	return j, err
}

// nextID is one more than the highest job number in the directory.
func (s *Store) nextID() (int, error) {
	names, err := filepath.Glob(filepath.Join(s.dir, "*.json"))
	if err != nil {
		return 0, err
	}
	max := 0
	for _, n := range names {
		if v, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(n), ".json")); err == nil && v > max {
			max = v
		}
	}
	return max + 1, nil
}

// write stores j atomically (temp file + rename).
func (s *Store) write(j Job) error {
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(s.jobPath(j.ID), append(data, '\n'), FileMode); err != nil {
		return fmt.Errorf("job %s: %w", j.ID, err)
	}
	return nil
}

// Get returns one job; ErrNoJob when there is none with that ID.
func (s *Store) Get(id string) (Job, error) {
	if id == "" || strings.ContainsAny(id, `/\.`) {
		return Job{}, fmt.Errorf("job %q: %w (job IDs are numbers; see devenv jobs)", id, ErrNoJob)
	}
	data, err := statedir.ReadFile(s.dir, s.jobPath(id), safefile.MaxState)
	if errors.Is(err, os.ErrNotExist) {
		return Job{}, fmt.Errorf("job %s: %w (see devenv jobs)", id, ErrNoJob)
	}
	if err != nil {
		return Job{}, err
	}
	var j Job
	if err := json.Unmarshal(data, &j); err != nil {
		return Job{}, fmt.Errorf("%s is not a job file (%w): remove it", s.jobPath(id), err)
	}
	if j.ID != id {
		return Job{}, fmt.Errorf("%s says it is job %q: a job file is named after its id; it was left out of the queue, remove it or rename it to %s.json", s.jobPath(id), j.ID, j.ID)
	}
	return j, nil
}

// List returns every job, oldest first. Unreadable job files are left out
// and reported, all at once, in the error next to the jobs that could be read.
func (s *Store) List() ([]Job, error) {
	names, err := filepath.Glob(filepath.Join(s.dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var errs *multierror.Error
	var out []Job
	for _, n := range names {
		j, err := s.Get(strings.TrimSuffix(filepath.Base(n), ".json"))
		if err != nil {
			errs = multierror.Append(errs, err)
			continue
		}
		out = append(out, j)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].number() < out[b].number() })
	return out, errs.ErrorOrNil()
}

// Update changes job id under the state lock; fn may return errSkip to
// leave the job as it is. It returns the job as stored afterwards.
func (s *Store) update(id string, fn func(*Job) error) (Job, error) {
	var out Job
	err := s.withLock(func() error {
		j, err := s.Get(id)
		if err != nil {
			return err
		}
		out = j
		if err := fn(&j); err != nil {
			return err
		}
		out = j
		return s.write(j)
	})
	return out, err
}

// MarkReasonShown records that why the finished job ended was said, so
// that devenv jobs says it once.
func (s *Store) MarkReasonShown(id string) error {
	_, err := s.update(id, func(j *Job) error {
		if !j.State.Final() || j.ReasonShown {
			return errSkip
		}
		j.ReasonShown = true
		return nil
	})
	if errors.Is(err, errSkip) {
		return nil
	}
	return err
}

// Cancel cancels a job: a queued one at once; a running one by asking its
// runner to stop it (or at once when that runner is gone). Cancelling a
// finished job is an error that says how it ended.
func (s *Store) Cancel(id string) (Job, error) {
	return s.update(id, func(j *Job) error {
		switch {
		case j.State.Final():
			return fmt.Errorf("job %s already ended (%s); nothing to cancel", j.ID, j.State)
		case j.State == Queued, j.State == Running && !s.alive(j.RunnerPID):
			j.State, j.Finished, j.Reason = Cancelled, ptr(s.now().UTC()), "cancelled by the user"
		default:
			j.CancelRequested = true
		}
		return nil
	})
}
