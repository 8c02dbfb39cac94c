package sdk

import (
	"context"
	"strings"

	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/docker/compose/v5/pkg/api"
)

// events shows the SDK's progress in devenv's UI: with --json each event,
// on a terminal (and with --verbose) a line per finished step, warnings
// and errors always. Quiet otherwise: up prints its summary of changes.
type events struct{ out *ui.Printer }

func (e *events) Start(context.Context, string) {}
func (e *events) Done(string, bool)             {}

func (e *events) On(rs ...api.Resource) {
	if e.out == nil {
		return
	}
	for _, r := range rs {
		e.one(r)
	}
}

func (e *events) one(r api.Resource) {
	text := strings.TrimSpace(r.Text + " " + r.Details)
	switch {
	case e.out.JSON:
		e.out.Event(map[string]any{"event": "compose", "id": r.ID, "status": r.StatusText(), "text": r.Text, "details": r.Details})
	case r.Status == api.Error || r.Status == api.Warning:
		e.out.Warn("%s: %s", r.ID, text)
	case r.Status == api.Done && (e.out.TTY || e.out.Verbose):
		e.out.Step(r.ID, strings.ToLower(text))
	}
}
