package cli

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/hashicorp/go-multierror"
	"github.com/urfave/cli/v2"
)

func logsCommand() *cli.Command {
	return &cli.Command{
		Name:      "logs",
		Usage:     "show the services' logs",
		ArgsUsage: "[service...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "follow", Aliases: []string{"F"}, Usage: "keep printing new lines"},
			&cli.StringFlag{Name: "tail", Value: "all", Usage: "lines from the end to show (a number or all)"},
			&cli.BoolFlag{Name: "timestamps", Usage: "prefix each line with its time"},
			&cli.BoolFlag{Name: "diagnose", Usage: "explain well-known failures found in the logs"},
		},
		Action: runLogs,
	}
}

func runLogs(c *cli.Context) error {
	if t := c.String("tail"); t != "all" {
		if n, err := strconv.Atoi(t); err != nil || n < 0 {
			return exitcode.Newf(exitcode.Usage, "--tail %q: give a number of lines or all", t)
		}
	}
	p, err := openProject(c)
	if err != nil {
		return err
	}
	defer p.Close()
	names := args(c)
	if err := p.CheckServices(names); err != nil {
		return err
	}
	eng, err := p.Engine(c.Context)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		for _, sv := range p.Spec.Services {
			names = append(names, sv.Name)
		}
	}
	s := &services{project: p.Spec.Name, eng: eng}
	opts := engine.LogOptions{Follow: c.Bool("follow"), Tail: c.String("tail"), Timestamps: c.Bool("timestamps")}
	if c.Bool("diagnose") {
		return diagnoseLogs(c, s, names, opts)
	}
	return streamLogs(c, s, names, opts)
}

// streamLogs prints each service's logs, prefixed by its name when there
// are several, following them in parallel with -f.
func streamLogs(c *cli.Context, s *services, names []string, opts engine.LogOptions) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs *multierror.Error
	)
	out := &lockedWriter{w: c.App.Writer}
	for _, n := range names {
		prefix := ""
		if len(names) > 1 {
			prefix = n + " | "
		}
		w := &prefixWriter{prefix: prefix, w: out}
		run := func(n string) {
			err := s.eng.Logs(c.Context, plan.ContainerName(s.project, n), opts, w, w)
			w.flush()
			if err != nil && !isNotFoundErr(err) {
				mu.Lock()
				errs = multierror.Append(errs, fmt.Errorf("%s: %w", n, err))
				mu.Unlock()
			}
		}
		if !opts.Follow {
			run(n)
			continue
		}
		wg.Add(1)
		go func(n string) { defer wg.Done(); run(n) }(n)
	}
	wg.Wait()
	return errs.ErrorOrNil()
}

// services reach a project's running containers.
type services struct {
	project string
	eng     engine.Engine
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
