package engine

import (
	"context"
	"fmt"
	"time"
)

// ProjectReader reads a Compose project's containers as Compose finds
// them: by the project's name and Compose's labels (project, service,
// config hash), never by devenv's own. On a real engine it is the Compose
// SDK (compose/sdk: its Ps, Logs and Exec, the code of `docker compose
// -p NAME ps/logs/exec`), in unit tests the fake engine. ps, logs and exec
// read through it.
//
// The SDK needs only the project's name for these: Ps and Exec ignore the
// project value, and Logs uses it for nothing but its service names, which
// devenv gives. So a reader takes names, and ps, logs and exec work
// whether or not devenv.yaml and its lock plan.
type ProjectReader interface {
	// PsProject is the project's containers, running or not, one-off
	// containers included (Compose's ps --all), as the engine lists them:
	// ID, Name, Image, Labels, Status, Health and ExitCode of a container
	// that has exited, and Ports published while it runs.
	PsProject(ctx context.Context, project string) ([]ContainerState, error)
	// LogsProject hands each line of the services' containers' output
	// (stdout and stderr together: Compose's Logs does not tell them
	// apart) to logs.Line: one service after the other, or with Follow all
	// at once until ctx ends or none of their containers is left running.
	// A service without a container has no lines, and no error.
	LogsProject(ctx context.Context, logs ProjectLogs) error
	// ExecProject runs a command in the service's running container and
	// returns its exit code (0 at once with Detach). A service with no
	// running container is ErrNotFound. When ctx ends the command's output
	// is no longer followed and ctx's error is returned.
	ExecProject(ctx context.Context, exec ProjectExec) (int, error)
}

// ProjectLogs is one read of some services' logs.
type ProjectLogs struct {
	Project  string
	Services []string
	LogOptions
	// Line receives each line and its service, the line ending in "\n",
	// one call at a time. As with `docker compose logs`, a last line a
	// container wrote without a newline is not delivered.
	Line func(service string, line []byte)
	// Status, when set, receives what Compose says about a service's
	// container while following its logs ("demo-db exited with code 0").
	Status func(service, message string)
}

// ProjectExec is one command run in a service's container. ExecOptions'
// Resize is not read: the reader follows the terminal's size itself.
type ProjectExec struct {
	Project, Service string
	ExecOptions
}

// Silent is the error of a stream a reader's watchdog cut because the
// engine at host answered no ping for timeout while op ran (a followed
// log or an exec may be quiet for hours, so only pings tell a quiet
// stream from a gone engine): the same error as devenv's own streams
// give, exit 3.
func Silent(op, host string, timeout time.Duration) error {
	return &Error{Op: op, Kind: ErrUnreachable, Hint: hintStalled, Where: host,
		Err: fmt.Errorf("%w (no answer to a ping for %s)", errEngineSilent, timeout)}
}
