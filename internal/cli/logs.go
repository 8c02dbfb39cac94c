package cli

import (
	"fmt"
	"strconv"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
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
			&cli.StringFlag{Name: "tail", Aliases: []string{"n"}, Value: "all", Usage: "lines from the end to show (a number or all)"},
			&cli.BoolFlag{Name: "timestamps", Aliases: []string{"t"}, Usage: "prefix each line with its time"},
			&cli.StringFlag{Name: "since", Usage: "lines since a time (2026-12-01T10:00:00Z, a Unix time) or for a duration back (42m)"},
			&cli.StringFlag{Name: "until", Usage: "lines before a time or a duration back, as --since"},
			&cli.BoolFlag{Name: "no-log-prefix", Usage: "do not prefix lines with their service's name"},
			&cli.BoolFlag{Name: "diagnose", Usage: "explain well-known failures found in the logs"},
		},
		Action: func(c *cli.Context) error {
			if t := c.String("tail"); t != "all" {
				if n, err := strconv.Atoi(t); err != nil || n < 0 {
					return app.Exitf(app.ExitUsage, "--tail %q: give a number of lines or all", t)
				}
			}
			for _, f := range []string{"since", "until"} {
				if _, err := logTime(c.String(f), time.Now()); err != nil {
					return app.Exitf(app.ExitUsage, "--%s %q: %v\n\thint: a time such as 2026-12-01T10:00:00Z, a Unix time, or a duration back such as 42m", f, c.String(f), err)
				}
			}
			return projectAction(runLogs)(c)
		},
	}
}

func runLogs(c *cli.Context, p *app.Project) error {
	now := time.Now()
	since, _ := logTime(c.String("since"), now) // checked before the project was opened
	until, _ := logTime(c.String("until"), now)
	o := app.LogsOptions{Services: args(c), LogOptions: app.LogOptions{Follow: c.Bool("follow"), Tail: c.String("tail"),
		Timestamps: c.Bool("timestamps"), Since: since, Until: until}}
	if c.Bool("diagnose") {
		d, err := p.Diagnose(c.Context, o)
		return show(c, d, err, view.Diagnoses)
	}
	asJSON := boolOpt(c, "json")
	if asJSON {
		o.Timestamps = true // each line's time becomes its "time" field
		o.Streams = true    // and each line says its stream
	}
	o.Line = view.LogLines(c.App.Writer, p.LogsPrefixed(o.Services) && !c.Bool("no-log-prefix"), asJSON)
	return quietInterrupt(c, p.Logs(c.Context, o))
}

// logTime reads --since and --until as docker logs does: an RFC 3339 time
// (with or without a zone), a Unix time (seconds, with a fraction), or a
// duration back from now. Empty is the zero time (no bound).
func logTime(v string, now time.Time) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(v); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("a duration back is positive")
		}
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		whole := int64(secs)
		return time.Unix(whole, int64((secs-float64(whole))*1e9)), nil
	}
	return time.Time{}, fmt.Errorf("not a time, a Unix time or a duration")
}

// quietInterrupt makes a Ctrl-C that ends a follow (logs -f, jobs logs -f)
// exit 130 without a message: stopping is what the user asked for.
func quietInterrupt(c *cli.Context, err error) error {
	if c.Context.Err() != nil {
		return app.WithExit(app.ExitInterrupted, errSilent)
	}
	return err
}
