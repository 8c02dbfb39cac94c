// Package jobs is devenv's per-project job queue: `devenv submit` adds a job
// (a command to run in a service's container), a runner runs the queue one
// job after another per GPU set, and `devenv jobs` lists, follows and
// cancels them. State lives under <project>/.devenv/jobs/: one JSON file per
// job, written atomically, and one log file per job; a lock file makes sure
// only one runner works on a project's queue at a time.
package jobs

import (
	"strconv"
	"time"
)

// State is where a job is in its life.
type State string

// The states a job goes through: queued -> running -> done | failed, or
// cancelled from queued or running.
const (
	Queued    State = "queued"
	Running   State = "running"
	Done      State = "done"
	Failed    State = "failed"
	Cancelled State = "cancelled"
)

// Final reports whether a job in state s will never change again.
func (s State) Final() bool { return s == Done || s == Failed || s == Cancelled }

// Job is one queued command and what became of it.
type Job struct {
	ID        string     `json:"id"`
	Service   string     `json:"service"`
	Command   []string   `json:"command"`
	State     State      `json:"state"`
	ExitCode  *int       `json:"exit_code,omitempty"`
	Reason    string     `json:"reason,omitempty"` // why it failed or was cancelled
	Submitted time.Time  `json:"submitted"`
	Started   *time.Time `json:"started,omitempty"`
	Finished  *time.Time `json:"finished,omitempty"`
	SparkUI   string     `json:"spark_ui,omitempty"` // the service's published Spark UI, if any
	Log       string     `json:"log"`                // the job's output file on the host
	// RunnerPID is the process that runs (or ran) the job.
	RunnerPID int `json:"runner_pid,omitempty"`
	// CancelRequested asks the runner to stop a running job.
	CancelRequested bool `json:"cancel_requested,omitempty"`
	// ReasonShown: devenv jobs has said once why the job ended (on stderr);
	// the reason stays here and in devenv jobs --json.
	ReasonShown bool `json:"reason_shown,omitempty"`
}

// number is the job's sequence number, for ordering; 0 when the ID is not one.
func (j Job) number() int {
	n, err := strconv.Atoi(j.ID)
	if err != nil {
		return 0
	}
	return n
}

func ptr[T any](v T) *T { return &v }
