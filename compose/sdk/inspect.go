package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/containerd/errdefs"
	"github.com/devenv-dev/devenv/internal/endpoint/dockercli"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/cli/cli"
	"github.com/docker/cli/cli/streams"
	"github.com/docker/compose/v5/pkg/api"
	composesdk "github.com/docker/compose/v5/pkg/compose"
	"github.com/moby/moby/client"
)

// The Compose SDK reading a project: ps, logs and exec as `docker compose
// -p NAME` runs them. They need the project's name only (the SDK's Ps
// and Exec do not read the project value, and Logs only its service
// names, which devenv gives), so they work whether or not the project
// plans.

var _ engine.ProjectReader = (*Executor)(nil)

// PsProject is the SDK's Ps of every container of the project, one-offs
// too: one listing and, side by side, one inspect a container (the SDK
// reads health and exit code from it). A container removed between the
// two makes the SDK's Ps fail; the listing is then made once more.
func (x *Executor) PsProject(ctx context.Context, project string) ([]engine.ContainerState, error) {
	c, err := x.compose()
	if err != nil {
		return nil, err
	}
	sums, err := c.Ps(ctx, project, api.PsOptions{All: true})
	if errdefs.IsNotFound(err) {
		sums, err = c.Ps(ctx, project, api.PsOptions{All: true})
	}
	if err != nil {
		return nil, x.classify("list the project's containers", err)
	}
	out := make([]engine.ContainerState, 0, len(sums))
	for _, s := range sums {
		out = append(out, fromSummary(s))
	}
	return out, nil
}

// fromSummary is what devenv's ps shows of the SDK's summary: the ports a
// running container publishes (the listing also names exposed ports that
// are not published: those have no host port).
func fromSummary(s api.ContainerSummary) engine.ContainerState {
	st := engine.ContainerState{ID: s.ID, Name: s.Name, Image: s.Image, Labels: s.Labels, Status: string(s.State),
		Running: s.State == "running", Health: string(s.Health), ExitCode: s.ExitCode}
	for _, p := range s.Publishers {
		if p.PublishedPort == 0 {
			continue
		}
		st.Ports = append(st.Ports, engine.PortBinding{HostIP: p.URL, HostPort: p.PublishedPort, ContainerPort: p.TargetPort, Protocol: p.Protocol})
	}
	return st
}

// LogsProject reads each service's logs with the SDK's Logs, one call a
// service so that every line is known to be its service's (Compose names
// a line by its container, and a compose service may name its container
// anything). Without Follow the services are read one after the other,
// as devenv always printed them; with Follow side by side, under a
// watchdog that cuts the streams when the engine stops answering pings.
func (x *Executor) LogsProject(ctx context.Context, l engine.ProjectLogs) error {
	c, err := x.compose()
	if err != nil {
		return err
	}
	var mu sync.Mutex // one Line call at a time, across services
	read := func(ctx context.Context, svc string) error {
		err := c.Logs(ctx, l.Project, &consumer{mu: &mu, service: svc, line: l.Line, status: l.Status}, logOptions(svc, l.LogOptions))
		if err != nil && ctx.Err() == nil {
			return x.classify("read the logs of "+svc, err)
		}
		return nil
	}
	if !l.Follow {
		for _, svc := range l.Services {
			if err := read(ctx, svc); err != nil {
				return err
			}
		}
		return nil
	}
	cl, err := dockercli.New(x.ep, x.opts, dockercli.CLIOptions{Answer: engine.AnswerTimeout()})
	if err != nil {
		return err
	}
	defer func() { _ = cl.Client().Close() }()
	return x.watched(ctx, cl.Client(), "follow the logs", func(ctx context.Context) error {
		errs := make([]error, len(l.Services))
		var wg sync.WaitGroup
		for i, svc := range l.Services {
			wg.Go(func() { errs[i] = read(ctx, svc) })
		}
		wg.Wait()
		return errors.Join(errs...)
	})
}

func logOptions(service string, o engine.LogOptions) api.LogOptions {
	out := api.LogOptions{Services: []string{service}, Tail: o.Tail, Follow: o.Follow, Timestamps: o.Timestamps}
	if !o.Since.IsZero() {
		out.Since = o.Since.Format(time.RFC3339Nano)
	}
	if !o.Until.IsZero() {
		out.Until = o.Until.Format(time.RFC3339Nano)
	}
	return out
}

// consumer is an api.LogConsumer for one service's lines.
type consumer struct {
	mu      *sync.Mutex
	service string
	line    func(service string, line []byte)
	status  func(service, message string)
}

func (c *consumer) Log(_, message string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.line(c.service, []byte(message+"\n"))
}

// Err is a line the SDK read from a container's error stream where it
// tells them apart (attached containers, not logs): a line all the same.
func (c *consumer) Err(name, message string) { c.Log(name, message) }

func (c *consumer) Status(name, message string) {
	if c.status == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status(c.service, name+" "+message)
}

// ExecProject runs the command with the SDK's Exec, which picks the
// service's running container as `docker compose exec` does and runs it
// with docker/cli's exec (the terminal put in raw mode and kept at the
// terminal's size when e.TTY). The SDK writes to and reads from the
// streams of its docker CLI value, so each exec has one of its own on
// e's streams. A watchdog cuts the exec when the engine stops answering
// pings; ctx ending stops following it (the command goes on in the
// container unless the engine ends it).
func (x *Executor) ExecProject(ctx context.Context, e engine.ProjectExec) (int, error) {
	if x.ep == nil {
		return 0, errNoEndpoint
	}
	cl, err := dockercli.New(x.ep, x.opts, dockercli.CLIOptions{Out: orDiscard(e.Stdout), Err: orDiscard(e.Stderr), Answer: engine.AnswerTimeout()})
	if err != nil {
		return 0, err
	}
	defer func() { _ = cl.Client().Close() }()
	interactive := e.Stdin != nil && !e.Detach
	if interactive {
		cl.SetIn(streams.NewIn(readCloser(e.Stdin)))
	}
	c, err := composesdk.NewComposeService(cl, composesdk.WithPrompt(composesdk.AlwaysOkPrompt()))
	if err != nil {
		return 0, err
	}
	run := api.RunOptions{Service: e.Service, Command: e.Cmd, Detach: e.Detach, Tty: e.TTY && !e.Detach, Interactive: interactive,
		User: e.User, WorkingDir: e.WorkingDir, Environment: e.Env}
	op := fmt.Sprintf("run %q in service %s", strings.Join(e.Cmd, " "), e.Service)
	err = x.watched(ctx, cl.Client(), op, func(ctx context.Context) error {
		_, err := c.Exec(ctx, e.Project, run)
		return err
	})
	return x.execResult(op, e.Service, err)
}

// execResult is the exit code in the SDK's error (docker/cli's
// StatusError for a command that exited non-zero), or the error as
// devenv reports it: a service with no running container is ErrNotFound.
func (x *Executor) execResult(op, service string, err error) (int, error) {
	var st cli.StatusError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &st) && st.StatusCode >= 0:
		return st.StatusCode, nil
	case strings.Contains(err.Error(), fmt.Sprintf("service %q is not running", service)):
		// the SDK's words (pkg/compose/containers.go) for finding none
		return 0, &engine.Error{Op: op, Kind: engine.ErrNotFound, Err: err}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	return 0, x.classify(op, err)
}

var errNoEndpoint = errors.New("the Compose SDK needs the engine's address, and this engine gave none")

// readCloser is r as the docker CLI's input: an *os.File as it is (so a
// terminal is seen as one), anything else never closed.
func readCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(r)
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// pinger is what the watchdog needs of the SDK's client.
type pinger interface {
	Ping(context.Context, client.PingOptions) (client.PingResult, error)
}

// watched runs run under a context that is cancelled when the engine
// answers no ping within the answer timeout (DEVENV_ENGINE_TIMEOUT),
// pinging every half of it (30 s at most): a followed log or an exec may
// print nothing for hours, so silence on the stream proves nothing. It
// returns run's error, or engine.Silent when the watchdog cut it.
func (x *Executor) watched(ctx context.Context, p pinger, op string, run func(context.Context) error) error {
	timeout := engine.AnswerTimeout()
	return watchEngine(ctx, p, timeout, min(timeout/2, 30*time.Second), run, func() error { return engine.Silent(op, x.ep.String(), timeout) })
}

func watchEngine(ctx context.Context, p pinger, timeout, every time.Duration, run func(context.Context) error, silent func() error) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var fired atomic.Bool
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-sctx.Done():
				return
			case <-t.C:
				pctx, pcancel := context.WithTimeout(sctx, timeout)
				_, err := p.Ping(pctx, client.PingOptions{})
				pcancel()
				if err != nil && sctx.Err() == nil {
					fired.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	err := run(sctx)
	close(done)
	if fired.Load() && ctx.Err() == nil {
		return silent()
	}
	return err
}
