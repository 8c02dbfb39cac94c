package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

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
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f", "F"}, Usage: "keep printing new lines until Ctrl-C"},
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
	return quietInterrupt(c, streamLogs(c, s, names, opts))
}

// quietInterrupt makes a Ctrl-C that ends a follow (logs -f, jobs logs -f)
// exit 130 without a message: stopping is what the user asked for.
func quietInterrupt(c *cli.Context, err error) error {
	if c.Context.Err() != nil {
		return exitcode.With(exitcode.Interrupted, errSilent)
	}
	return err
}

// streamLogs prints each service's logs, prefixed by its name when there
// are several (with --json as one JSON object a line), following them in
// parallel with -f.
func streamLogs(c *cli.Context, s *services, names []string, opts engine.LogOptions) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs *multierror.Error
	)
	out := &lockedWriter{w: c.App.Writer}
	asJSON := boolOpt(c, "json")
	if asJSON {
		opts.Timestamps = true // each line's time becomes its "time" field
	}
	for _, n := range names {
		stdout, stderr := logWriters(out, n, len(names) > 1, asJSON)
		run := func(n string) {
			err := s.eng.Logs(c.Context, plan.ContainerName(s.project, n), opts, stdout, stderr)
			stdout.flush()
			stderr.flush()
			if err != nil && !isNotFoundErr(err) && c.Context.Err() == nil {
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

// logWriters are the writers for one service's stdout and stderr: lines
// with a "service | " prefix when several services are shown, or JSON.
func logWriters(out io.Writer, service string, several, asJSON bool) (*lineWriter, *lineWriter) {
	if asJSON {
		return &lineWriter{emit: jsonLogLine(out, service, "stdout")},
			&lineWriter{emit: jsonLogLine(out, service, "stderr")}
	}
	prefix := ""
	if several {
		prefix = service + " | "
	}
	w := &lineWriter{emit: func(line []byte) { out.Write(append([]byte(prefix), line...)) }}
	return w, w
}

// jsonLogLine writes a log line (as the engine sends it with timestamps:
// "TIME TEXT") as a logLine object.
func jsonLogLine(out io.Writer, service, stream string) func([]byte) {
	return func(line []byte) {
		text := strings.TrimRight(string(line), "\r\n")
		ll := logLine{Service: service, Stream: stream, Line: text}
		if t, rest, ok := strings.Cut(text, " "); ok {
			if _, err := time.Parse(time.RFC3339Nano, t); err == nil {
				ll.Time, ll.Line = t, rest
			}
		}
		b, _ := json.Marshal(ll)
		out.Write(append(b, '\n'))
	}
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

// logLine is one line of a service's log under --json.
type logLine struct {
	Service string `json:"service"`
	Stream  string `json:"stream"`
	Time    string `json:"time,omitempty"`
	Line    string `json:"line"`
}
