package app

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/tty"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/hashicorp/go-multierror"
)

// ExecOptions say what Exec runs in a service's container, and with
// which streams (exec, shell and run's, repro's job).
type ExecOptions struct {
	Cmd        []string
	Env        []string // KEY=VALUE
	User       string
	WorkingDir string
	// TTY asks for a terminal: the command gets one when Stdin and Stdout
	// both are terminals, and Stdin's stays raw while it runs.
	TTY bool
	// Detach starts the command and returns at once (exit code 0), with no
	// streams and no terminal, as `docker compose exec -d`.
	Detach bool
	Stdin  io.Reader // nil: no stdin
	Stdout io.Writer // nil: discarded
	Stderr io.Writer // nil: discarded (merged into Stdout with a TTY)
}

// forEngine is o as the engine runs it, and what puts the terminal back
// once the command ends (nothing, without a TTY).
func (o ExecOptions) forEngine() (engine.ExecOptions, func()) {
	e := engine.ExecOptions{Cmd: o.Cmd, Env: o.Env, User: o.User, WorkingDir: o.WorkingDir}
	if o.Detach {
		e.Detach = true // the command runs on its own: nothing of this terminal's
		return e, func() {}
	}
	e.Stdin, e.Stdout, e.Stderr = o.Stdin, o.Stdout, o.Stderr
	if !o.TTY || !ui.IsTerminal(o.Stdin) || !ui.IsTerminal(o.Stdout) {
		return e, func() {}
	}
	restore, resize := tty.Raw(o.Stdin)
	e.TTY, e.Resize = true, resize
	return e, restore
}

// Exec runs a command in a service's running container and returns its
// exit code.
func (p *Project) Exec(ctx context.Context, service string, o ExecOptions) (int, error) {
	cmd, restore := o.forEngine()
	defer restore()
	if err := p.CheckServices([]string{service}); err != nil {
		return 0, err
	}
	eng, err := p.Engine(ctx)
	if err != nil {
		return 0, err
	}
	var code int
	if rd, ok := p.reader(); ok {
		if err := p.runner(nil).OthersOfCompose(ctx, p.Spec.Name, []string{service}); err != nil {
			return 0, err
		}
		code, err = rd.ExecProject(ctx, engine.ProjectExec{Project: p.Spec.Name, Service: service, ExecOptions: cmd})
	} else {
		code, err = eng.Exec(ctx, p.containerOf(ctx, eng, service), cmd)
	}
	if err != nil {
		return 0, p.notRunning(ctx, eng, err, service)
	}
	return code, nil
}

// notRunning is NotRunning knowing the container: one that exists but is
// stopped (devenv stop, an exit) is started again with devenv start, as
// Compose's own hint says, and only a missing one needs devenv up.
func (p *Project) notRunning(ctx context.Context, eng engine.Engine, err error, service string) error {
	if !errors.Is(err, engine.ErrNotFound) && !errors.Is(err, engine.ErrConflict) {
		return err
	}
	objs, lerr := eng.List(ctx, engine.Containers, plan.Labels(p.Spec.Name, service))
	if lerr != nil || len(objs) == 0 {
		return NotRunning(engine.ErrNotFound, service)
	}
	for _, o := range objs {
		if o.State == "running" {
			return err // running, yet the exec failed: say the engine's reason
		}
	}
	return exitcode.Newf(exitcode.Failure, "service %s is not running (its container %s is %s): run devenv start %s", service, objs[0].Name, cmp.Or(objs[0].State, "stopped"), service)
}

// ErrNoCommand is RunTarget's answer to words that name no command.
var ErrNoCommand = errors.New("no command to run")

// RunTarget finds the service and the command in `devenv run`'s words,
// `[service] [--] cmd...`, as docker compose run reads them: a first word
// naming a service is the service, a "--" right after it (or first) only
// separates, and every word after that is the command's, a later "--"
// included. Without a service the first spark-rapids service runs it.
func (p *Project) RunTarget(words []string) (service string, cmd []string, err error) {
	cmd = words
	switch {
	case len(words) > 0 && words[0] == "--":
		cmd = words[1:]
	case len(words) > 1 && words[1] == "--":
		service, cmd = words[0], words[2:]
	case len(words) > 0 && p.Spec.Service(words[0]) != nil:
		service, cmd = words[0], words[1:]
	}
	if len(cmd) == 0 {
		return "", nil, ErrNoCommand
	}
	service, err = p.SparkService(service)
	return service, cmd, err
}

// LogOptions say which of a service's log lines to read (logs' flags).
type LogOptions struct {
	Follow     bool
	Tail       string // "all" or a number of lines; empty means all
	Timestamps bool
	Since      time.Time
	Until      time.Time // zero: up to now (and on, with Follow)
}

// forEngine is o as the engine reads logs: the same fields, so a change to
// either fails to compile here.
func (o LogOptions) forEngine() engine.LogOptions { return engine.LogOptions(o) }

// LogsOptions steer Logs and Diagnose.
type LogsOptions struct {
	Services []string // empty: every devenv.yaml service
	LogOptions
	// Line receives each whole line of a service's output, one call at a
	// time. Logs needs it; Diagnose reads the logs itself.
	Line func(service, stream string, line []byte)
	// Streams: Line needs each line's stream, "stdout" or "stderr" (logs
	// --json). The Compose SDK's Logs copies a container's two streams
	// into one (pkg/compose/logs.go), so these logs are read with devenv's
	// own engine calls, which also give a last line written without a
	// newline (with one added); otherwise the stream is "" and the lines
	// are the SDK's, as `docker compose logs` prints them.
	Streams bool
}

// Logs hands each service's log lines to o.Line, following them in
// parallel with Follow. A service without a container has no logs, not an
// error; neither is the stream ending because ctx was cancelled. The
// lines are read by the Compose SDK (the project reader), as `docker
// compose -p NAME logs` reads them, unless o.Streams.
func (p *Project) Logs(ctx context.Context, o LogsOptions) error {
	names, eng, err := p.logTargets(ctx, o.Services)
	if err != nil {
		return err
	}
	if rd, ok := p.reader(); ok && !o.Streams {
		if err := p.runner(nil).OthersOfCompose(ctx, p.Spec.Name, names); err != nil {
			return err
		}
		return rd.LogsProject(ctx, engine.ProjectLogs{Project: p.Spec.Name, Services: names, LogOptions: o.forEngine(),
			Line:   func(service string, line []byte) { o.Line(service, "", line) },
			Status: func(service, msg string) { p.out.Say("%s: %s", service, msg) }})
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex // one Line call at a time, and errs
		errs *multierror.Error
	)
	emit := func(service, stream string) *lineWriter {
		return &lineWriter{emit: func(line []byte) { mu.Lock(); o.Line(service, stream, line); mu.Unlock() }}
	}
	run := func(n string) {
		stdout, stderr := emit(n, "stdout"), emit(n, "stderr")
		err := eng.Logs(ctx, p.containerOf(ctx, eng, n), o.forEngine(), stdout, stderr)
		stdout.flush()
		stderr.flush()
		if err != nil && !errors.Is(err, engine.ErrNotFound) && ctx.Err() == nil {
			mu.Lock()
			errs = multierror.Append(errs, fmt.Errorf("%s: %w", n, err))
			mu.Unlock()
		}
	}
	for _, n := range names {
		if !o.Follow {
			run(n)
			continue
		}
		wg.Add(1)
		go func(n string) { defer wg.Done(); run(n) }(n)
	}
	wg.Wait()
	return errs.ErrorOrNil()
}

// Diagnosis is what devenv recognises in one service's logs.
type Diagnosis struct {
	Service  string           `json:"service"`
	Findings []doctor.Finding `json:"findings"`
}

// Diagnose reads each service's logs and explains the failures it knows.
func (p *Project) Diagnose(ctx context.Context, o LogsOptions) ([]Diagnosis, error) {
	names, eng, err := p.logTargets(ctx, o.Services)
	if err != nil {
		return nil, err
	}
	opts := o.forEngine()
	opts.Follow = false
	logs := p.readLogs(ctx, eng, opts)
	out := []Diagnosis{}
	for _, n := range names {
		text, err := logs(n)
		if err != nil {
			return nil, err
		}
		f := doctor.Diagnose(text)
		if f == nil {
			f = []doctor.Finding{}
		}
		out = append(out, Diagnosis{Service: n, Findings: f})
	}
	return out, nil
}

// readLogs reads one service's whole logs, stdout and stderr together:
// through the project reader (the Compose SDK) when there is one.
func (p *Project) readLogs(ctx context.Context, eng engine.Engine, opts engine.LogOptions) func(service string) (string, error) {
	rd, ok := p.reader()
	return func(service string) (string, error) {
		var buf bytes.Buffer
		var err error
		if ok {
			err = rd.LogsProject(ctx, engine.ProjectLogs{Project: p.Spec.Name, Services: []string{service}, LogOptions: opts,
				Line: func(_ string, line []byte) { buf.Write(line) }})
		} else {
			err = eng.Logs(ctx, p.containerOf(ctx, eng, service), opts, &buf, &buf)
		}
		if err != nil && !errors.Is(err, engine.ErrNotFound) {
			return "", err
		}
		return buf.String(), nil
	}
}

// LogsPrefixed says whether log lines need their service's name: when
// lines of more than one service can come (the compose files' services
// count, as logs shows them too).
func (p *Project) LogsPrefixed(services []string) bool {
	if len(services) == 0 {
		services = p.ServiceNames()
	}
	return len(services) > 1
}

func (p *Project) logTargets(ctx context.Context, names []string) ([]string, engine.Engine, error) {
	if err := p.CheckServices(names); err != nil {
		return nil, nil, err
	}
	eng, err := p.Engine(ctx)
	if err != nil {
		return nil, nil, err
	}
	if len(names) == 0 {
		names = p.ServiceNames() // the compose files' services too
	}
	return names, eng, nil
}

// lineWriter hands whole lines to emit, keeping a partial last line until
// more comes or flush.
type lineWriter struct {
	mu   sync.Mutex
	emit func(line []byte)
	buf  bytes.Buffer
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(b)
	for {
		line, err := l.buf.ReadBytes('\n')
		if err != nil {
			l.buf.Write(line)
			return len(b), nil
		}
		l.emit(line)
	}
}

func (l *lineWriter) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buf.Len() > 0 {
		l.emit(append(l.buf.Bytes(), '\n'))
		l.buf.Reset()
	}
}
