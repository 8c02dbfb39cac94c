package sdk

import (
	"context"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/compose/v5/pkg/api"
)

// events hands the SDK's progress to the executor's receiver as typed
// events (engine.ExecEvent), which the view renders.
type events struct{ emit engine.ExecEvents }

func (e *events) Start(context.Context, string) {}
func (e *events) Done(string, bool)             {}

func (e *events) On(rs ...api.Resource) {
	if e.emit == nil {
		return
	}
	for _, r := range rs {
		e.emit(Event(r))
	}
}

// Event is the SDK's report on one resource as an executor event.
func Event(r api.Resource) engine.ExecEvent {
	return engine.ExecEvent{Kind: engine.Step, ID: r.ID, Status: r.StatusText(), Text: r.Text, Details: r.Details}
}
