package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"
)

// Logs copies a container's logs, demultiplexing stdout and stderr unless
// the container has a TTY (then everything goes to stdout).
func (d *docker) Logs(ctx context.Context, id string, opts LogOptions, stdout, stderr io.Writer) error {
	op := fmt.Sprintf("read logs of container %q", id)
	in, err := d.cli.ContainerInspect(ctx, id)
	if err != nil {
		return d.wrap(op, err)
	}
	lo := container.LogsOptions{ShowStdout: true, ShowStderr: true, Follow: opts.Follow, Tail: opts.Tail, Timestamps: opts.Timestamps}
	if !opts.Since.IsZero() {
		lo.Since = opts.Since.Format(time.RFC3339Nano)
	}
	if !opts.Until.IsZero() {
		lo.Until = opts.Until.Format(time.RFC3339Nano)
	}
	tty := in.Config != nil && in.Config.Tty
	if !opts.Follow {
		return d.copyLogs(ctx, op, id, lo, tty, stdout, stderr)
	}
	// Following may be silent for hours; only the engine's pings tell a
	// quiet container from a hung engine.
	timeout := AnswerTimeout()
	sctx, dog := d.watch(ctx, timeout)
	return dog.stop(d, op, timeout, d.copyLogs(sctx, op, id, lo, tty, stdout, stderr))
}

func (d *docker) copyLogs(ctx context.Context, op, id string, lo container.LogsOptions, tty bool, stdout, stderr io.Writer) error {
	rc, err := d.cli.ContainerLogs(ctx, id, lo)
	if err != nil {
		return d.wrap(op, err)
	}
	defer func() { _ = rc.Close() }()
	return d.wrap(op, copyOutput(rc, tty, orDiscard(stdout), orDiscard(stderr)))
}

// copyOutput copies a raw (TTY) or multiplexed stream to its writers.
func copyOutput(r io.Reader, tty bool, stdout, stderr io.Writer) error {
	var err error
	if tty {
		_, err = io.Copy(stdout, r)
	} else {
		_, err = stdcopy.StdCopy(stdout, stderr, r)
	}
	return err
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// Exec runs opts.Cmd in a running container and returns its exit code.
func (d *docker) Exec(ctx context.Context, id string, opts ExecOptions) (int, error) {
	op := fmt.Sprintf("run %q in container %q", strings.Join(opts.Cmd, " "), id)
	if opts.Detach {
		return 0, d.execDetached(ctx, op, id, opts)
	}
	created, err := d.cli.ContainerExecCreate(ctx, id, container.ExecOptions{
		Cmd: opts.Cmd, Env: opts.Env, User: opts.User, WorkingDir: opts.WorkingDir, Tty: opts.TTY,
		AttachStdin: opts.Stdin != nil, AttachStdout: true, AttachStderr: true,
	})
	if err != nil {
		return -1, d.wrap(op, err)
	}
	resp, err := d.hijacker().ContainerExecAttach(ctx, created.ID, container.ExecAttachOptions{Tty: opts.TTY})
	if err != nil {
		return -1, d.wrap(op, err)
	}
	defer resp.Close()
	if opts.TTY && opts.Resize != nil {
		go d.forwardResizes(ctx, created.ID, opts.Resize)
	}
	if opts.Stdin != nil {
		go func() {
			_, _ = io.Copy(resp.Conn, opts.Stdin)
			_ = resp.CloseWrite()
		}()
	}
	if err := d.copyExecOutput(ctx, op, resp, opts); err != nil {
		return -1, err
	}
	return d.execExitCode(ctx, op, created.ID)
}

// execDetached starts a command in the container without attaching to it.
func (d *docker) execDetached(ctx context.Context, op, id string, opts ExecOptions) error {
	created, err := d.cli.ContainerExecCreate(ctx, id, container.ExecOptions{
		Cmd: opts.Cmd, Env: opts.Env, User: opts.User, WorkingDir: opts.WorkingDir, Tty: opts.TTY, Detach: true,
	})
	if err != nil {
		return d.wrap(op, err)
	}
	if err := d.cli.ContainerExecStart(ctx, created.ID, container.ExecStartOptions{Detach: true, Tty: opts.TTY}); err != nil {
		return d.wrap(op, err)
	}
	return nil
}

// copyExecOutput copies an exec's output until it ends. An exec may be
// silent for hours, so a watchdog pings the engine meanwhile; when the
// engine stops answering it closes the attached connection (cancelling a
// context does not end a hijacked stream) and the exec fails as an
// unreachable engine, exit 3, instead of hanging. The caller's ctx ending
// (Ctrl-C without a TTY) closes it too: devenv stops following the command
// and returns ctx's error, as docker compose exec does; the command itself
// goes on in the container unless the engine ends it.
func (d *docker) copyExecOutput(ctx context.Context, op string, resp types.HijackedResponse, opts ExecOptions) error {
	timeout := AnswerTimeout()
	sctx, dog := d.watch(ctx, timeout)
	stopClosing := context.AfterFunc(sctx, resp.Close) // cancelling a context does not end a hijacked stream
	defer stopClosing()
	err := copyOutput(resp.Reader, opts.TTY, orDiscard(opts.Stdout), orDiscard(opts.Stderr))
	if ctx.Err() != nil {
		dog.stop(d, op, timeout, nil) //nolint:errcheck // the caller's cancel is the answer
		return fmt.Errorf("%s: %w", op, ctx.Err())
	}
	if err = dog.stop(d, op, timeout, err); err != nil {
		var ee *Error
		if errors.As(err, &ee) {
			return err
		}
		return d.wrap(op, err)
	}
	return nil
}

// forwardResizes applies terminal sizes to an exec's TTY until the channel
// closes or ctx ends. Resizing is best effort: a failed resize only
// leaves the terminal at its former size.
func (d *docker) forwardResizes(ctx context.Context, execID string, sizes <-chan TermSize) {
	for {
		select {
		case <-ctx.Done():
			return
		case s, ok := <-sizes:
			if !ok {
				return
			}
			_ = d.cli.ContainerExecResize(ctx, execID, container.ResizeOptions{Height: s.Height, Width: s.Width})
		}
	}
}

// execExitCode waits for an exec whose output has ended to be reported as
// finished, and returns its exit code.
func (d *docker) execExitCode(ctx context.Context, op, execID string) (int, error) {
	for {
		in, err := d.cli.ContainerExecInspect(ctx, execID)
		if err != nil {
			return -1, d.wrap(op, err)
		}
		if !in.Running {
			return in.ExitCode, nil
		}
		select {
		case <-ctx.Done():
			return -1, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
