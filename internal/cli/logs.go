package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/view"
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
	if c.Bool("diagnose") {
		d, err := p.Diagnose(c.Context, o)
		if err != nil {
			return err
		}
		return printer(c).Result(d, func(w io.Writer) { view.Diagnoses(w, d) })
	}
	asJSON := boolOpt(c, "json")
	if asJSON {
		o.Timestamps = true // each line's time becomes its "time" field
	}
	o.Line = logLines(c.App.Writer, len(o.Services) != 1 && len(p.Spec.Services) > 1, asJSON)
	return quietInterrupt(c, p.Logs(c.Context, o))
}

// quietInterrupt makes a Ctrl-C that ends a follow (logs -f, jobs logs -f)
// exit 130 without a message: stopping is what the user asked for.
func quietInterrupt(c *cli.Context, err error) error {
	if c.Context.Err() != nil {
		return exitcode.With(exitcode.Interrupted, errSilent)
	}
	return err
}

// logLines writes each log line with a "service | " prefix when several
// services are shown, or with --json as one logLine object a line.
func logLines(out io.Writer, several, asJSON bool) func(service, stream string, line []byte) {
	if asJSON {
		return func(service, stream string, line []byte) {
			text := strings.TrimRight(string(line), "\r\n")
			ll := logLine{Service: service, Stream: stream, Line: text}
			if t, rest, ok := strings.Cut(text, " "); ok {
				if _, err := time.Parse(time.RFC3339Nano, t); err == nil {
					ll.Time, ll.Line = t, rest
				}
			}
			b, _ := json.Marshal(ll)
			_, _ = out.Write(append(b, '\n')) // a closed stdout ends the command through the stream
		}
	}
	return func(service, _ string, line []byte) {
		if several {
			fmt.Fprint(out, service+" | ")
		}
		_, _ = out.Write(line) // as above
	}
}

// logLine is one line of a service's log under --json.
type logLine struct {
	Service string `json:"service"`
	Stream  string `json:"stream"`
	Time    string `json:"time,omitempty"`
	Line    string `json:"line"`
}
