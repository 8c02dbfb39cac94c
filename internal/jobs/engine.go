package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/engine"
)

// EngineExecutor runs jobs with the engine's Exec in their service's
// container. Each command runs under a small sh wrapper that writes its pid
// to /tmp/devenv-job-<id>.pid in the container, so Kill can signal it (an
// exec has no kill of its own in the Engine API).
type EngineExecutor struct {
	Eng engine.Engine
	// Container names the container of a service.
	Container func(service string) string
}

const pidWrapper = `echo $$ >"$0" 2>/dev/null; exec "$@"`

func pidFile(id string) string { return "/tmp/devenv-job-" + id + ".pid" }

// Run runs j.Command in j.Service's container with DEVENV_JOB_ID set.
func (e EngineExecutor) Run(ctx context.Context, j Job, out io.Writer) (int, error) {
	cmd := append([]string{"sh", "-c", pidWrapper, pidFile(j.ID)}, j.Command...)
	code, err := e.Eng.Exec(ctx, e.Container(j.Service), engine.ExecOptions{Cmd: cmd,
		Env: []string{"DEVENV_JOB_ID=" + j.ID}, Stdout: out, Stderr: out})
	if errors.Is(err, engine.ErrNotFound) || errors.Is(err, engine.ErrConflict) {
		return -1, fmt.Errorf("service %s is not running: run devenv up %s, then submit the job again", j.Service, j.Service)
	}
	return code, err
}

// Kill sends SIGTERM to the job's process in its container.
func (e EngineExecutor) Kill(ctx context.Context, j Job) error {
	_, err := e.Eng.Exec(ctx, e.Container(j.Service), engine.ExecOptions{
		Cmd: []string{"sh", "-c", `kill -TERM "$(cat "$0")" 2>/dev/null; rm -f "$0"`, pidFile(j.ID)}})
	return err
}
