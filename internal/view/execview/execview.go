// Package execview renders an executor's events (engine.ExecEvent) in
// devenv's UI. It is apart from internal/view, which renders the
// application's results, so that the executor's own tests can show what a
// user sees without importing the application.
package execview

import (
	"strings"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/ui"
)

// Render shows events through out: with --json each event as one JSON
// object; on a terminal (and with --verbose) a line per finished step;
// warnings and errors always; the watch's messages and output as lines.
// Quiet otherwise: up prints its summary of changes. A nil out shows
// nothing.
func Render(out *ui.Printer) engine.ExecEvents {
	if out == nil {
		return nil
	}
	return func(e engine.ExecEvent) {
		switch e.Kind {
		case engine.Step:
			step(out, e)
		case engine.WatchMessage:
			watchLine(out, "message", e.Text, "develop.watch: ")
		case engine.WatchOutput:
			watchLine(out, "output", e.Text, "")
		case engine.WatchWarning:
			out.Warn("develop.watch: %s", e.Text)
		}
	}
}

func step(out *ui.Printer, e engine.ExecEvent) {
	text := strings.TrimSpace(e.Text + " " + e.Details)
	switch {
	case out.JSON:
		out.Event(map[string]any{"event": "compose", "id": e.ID, "status": e.Status, "text": e.Text, "details": e.Details})
	case e.Status == "Error" || e.Status == "Warning":
		out.Warn("%s: %s", e.ID, text)
	case e.Status == "Done" && (out.TTY || out.Verbose):
		out.Step(e.ID, strings.ToLower(text))
	}
}

func watchLine(out *ui.Printer, key, text, prefix string) {
	if out.JSON {
		out.Event(map[string]any{"event": "watch", key: text})
		return
	}
	out.Say("%s%s", prefix, text)
}
