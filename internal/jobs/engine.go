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
// exec has no kill of its own in the Engine API). The engine starts every
// exec in a session of its own (runc calls setsid), so that pid is also the
// process group of everything the job starts (spark-submit's JVM, Python
// workers): Kill signals the whole group.
type EngineExecutor struct {
	Eng engine.Engine
	// Container names the container of a service.
	Container func(service string) string
}

// pidWrapper records the shell's pid (the job's process group) and execs
// the job's command in its place; where the engine did not make the exec a
// process group of its own (runc does), setsid does, keeping the pid (a
// process that leads no group is not forked by setsid; one that leads a
// group, or where /proc cannot tell, is left as it is).
const pidWrapper = `echo $$ >"$0" 2>/dev/null
g=$(cut -d' ' -f5 /proc/$$/stat 2>/dev/null)
if [ -n "$g" ] && [ "$g" != "$$" ] && command -v setsid >/dev/null 2>&1; then exec setsid "$@"; fi
exec "$@"`

// killScript signals the job's process group ($1 is TERM or KILL), or the
// process alone where it leads no group; KILL is the last word, so the pid
// file goes with it. (No "--" before the group: dash's kill refuses it.)
const killScript = `p=$(cat "$0" 2>/dev/null) || exit 0; [ -n "$p" ] || exit 0
kill -"$1" -"$p" 2>/dev/null || kill -"$1" "$p" 2>/dev/null
[ "$1" = KILL ] && rm -f "$0"; exit 0`

func pidFile(id string) string { return "/tmp/devenv-job-" + id + ".pid" }

// runCmd is the command line Run execs for j.
func runCmd(j Job) []string {
	return append([]string{"sh", "-c", pidWrapper, pidFile(j.ID)}, j.Command...)
}

// killCmd is the command line Kill execs for j.
func killCmd(j Job, force bool) []string {
	sig := "TERM"
	if force {
		sig = "KILL"
	}
	return []string{"sh", "-c", killScript, pidFile(j.ID), sig}
}

// Run runs j.Command in j.Service's container with DEVENV_JOB_ID set.
func (e EngineExecutor) Run(ctx context.Context, j Job, out io.Writer) (int, error) {
	code, err := e.Eng.Exec(ctx, e.Container(j.Service), engine.ExecOptions{Cmd: runCmd(j),
		Env: []string{"DEVENV_JOB_ID=" + j.ID}, Stdout: out, Stderr: out})
	if errors.Is(err, engine.ErrNotFound) || errors.Is(err, engine.ErrConflict) {
		return -1, fmt.Errorf("service %s is not running: run devenv up %s, then submit the job again", j.Service, j.Service)
	}
	return code, err
}

// Kill sends SIGTERM (SIGKILL when force) to the job's process group in
// its container.
func (e EngineExecutor) Kill(ctx context.Context, j Job, force bool) error {
	_, err := e.Eng.Exec(ctx, e.Container(j.Service), engine.ExecOptions{Cmd: killCmd(j, force)})
	return err
}
