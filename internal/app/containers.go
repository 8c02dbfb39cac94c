package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/hashicorp/go-multierror"
)

// Exec runs a command in a service's running container and returns its
// exit code.
func (p *Project) Exec(ctx context.Context, service string, o engine.ExecOptions) (int, error) {
	if err := p.CheckServices([]string{service}); err != nil {
		return 0, err
	}
	eng, err := p.Engine(ctx)
	if err != nil {
		return 0, err
	}
	code, err := eng.Exec(ctx, plan.ContainerName(p.Spec.Name, service), o)
	if err != nil {
		return 0, NotRunning(err, service)
	}
	return code, nil
}

// LogsOptions steer Logs and Diagnose.
type LogsOptions struct {
	Services []string // empty: every devenv.yaml service
	engine.LogOptions
	// Sink gives the writers a service's stdout and stderr go to, and a
	// flush for a partial last line (logs --json); nil: lines on Logs' w,
	// prefixed "service | " when there are several.
	Sink func(service string) (stdout, stderr io.Writer, flush func())
}

// Logs writes each service's logs to w, prefixed by its name when there are
// several, following them in parallel with Follow. A service without a
// container has no logs, not an error.
func (p *Project) Logs(ctx context.Context, o LogsOptions, w io.Writer) error {
	names, eng, err := p.logTargets(ctx, o.Services)
	if err != nil {
		return err
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs *multierror.Error
	)
	out := &lockedWriter{w: w}
	sink := o.Sink
	if sink == nil {
		sink = func(n string) (io.Writer, io.Writer, func()) {
			pw := &prefixWriter{w: out}
			if len(names) > 1 {
				pw.prefix = n + " | "
			}
			return pw, pw, pw.flush
		}
	}
	run := func(n string) {
		stdout, stderr, flush := sink(n)
		err := eng.Logs(ctx, plan.ContainerName(p.Spec.Name, n), o.LogOptions, stdout, stderr)
		flush()
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
	opts := o.LogOptions
	opts.Follow = false
	out := []Diagnosis{}
	for _, n := range names {
		var buf bytes.Buffer
		if err := eng.Logs(ctx, plan.ContainerName(p.Spec.Name, n), opts, &buf, &buf); err != nil && !errors.Is(err, engine.ErrNotFound) {
			return nil, err
		}
		f := doctor.Diagnose(buf.String())
		if f == nil {
			f = []doctor.Finding{}
		}
		out = append(out, Diagnosis{Service: n, Findings: f})
	}
	return out, nil
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
		for _, s := range p.Spec.Services {
			names = append(names, s.Name)
		}
	}
	return names, eng, nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// prefixWriter writes whole lines, each with a prefix.
type prefixWriter struct {
	prefix string
	w      io.Writer
	buf    bytes.Buffer
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf.Write(b)
	for {
		line, err := p.buf.ReadBytes('\n')
		if err != nil {
			p.buf.Write(line)
			return len(b), nil
		}
		if _, err := p.w.Write(append([]byte(p.prefix), line...)); err != nil {
			return 0, err
		}
	}
}

func (p *prefixWriter) flush() {
	if p.buf.Len() > 0 {
		p.w.Write(append([]byte(p.prefix), append(p.buf.Bytes(), '\n')...))
		p.buf.Reset()
	}
}
