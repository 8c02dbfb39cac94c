package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
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
	o := app.LogsOptions{Services: args(c), LogOptions: engine.LogOptions{Follow: c.Bool("follow"), Tail: c.String("tail"), Timestamps: c.Bool("timestamps")}}
	if !c.Bool("diagnose") {
		if boolOpt(c, "json") {
			o.Timestamps = true // each line's time becomes its "time" field
			o.Sink = jsonLogSink(&lockedWriter{w: c.App.Writer})
		}
		return quietInterrupt(c, p.Logs(c.Context, o, c.App.Writer))
	}
	d, err := p.Diagnose(c.Context, o)
	if err != nil {
		return err
	}
	return printer(c).Result(d, func(w io.Writer) { printDiagnoses(w, d) })
}

// quietInterrupt makes a Ctrl-C that ends a follow (logs -f, jobs logs -f)
// exit 130 without a message: stopping is what the user asked for.
func quietInterrupt(c *cli.Context, err error) error {
	if c.Context.Err() != nil {
		return exitcode.With(exitcode.Interrupted, errSilent)
	}
	return err
}

// jsonLogSink writes each log line as a logLine object, one a line.
func jsonLogSink(out io.Writer) func(service string) (io.Writer, io.Writer, func()) {
	return func(service string) (io.Writer, io.Writer, func()) {
		stdout := &lineWriter{emit: jsonLogLine(out, service, "stdout")}
		stderr := &lineWriter{emit: jsonLogLine(out, service, "stderr")}
		return stdout, stderr, func() { stdout.flush(); stderr.flush() }
	}
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

// logLine is one line of a service's log under --json.
type logLine struct {
	Service string `json:"service"`
	Stream  string `json:"stream"`
	Time    string `json:"time,omitempty"`
	Line    string `json:"line"`
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
