package sdk

import (
	"context"
	"sync"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/compose/v5/pkg/api"
)

// events hands the SDK's progress to the executor's receiver as typed
// events (engine.ExecEvent), which the view renders, and to the reader of
// the decisions of the run going on (record), if any.
type events struct {
	emit engine.ExecEvents

	mu  sync.Mutex
	rec *DecisionLog
}

func (e *events) Start(context.Context, string) {}
func (e *events) Done(string, bool)             {}

// record has the run's events read by d from now on (nil: by none).
func (e *events) record(d *DecisionLog) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rec = d
}

func (e *events) On(rs ...api.Resource) {
	e.mu.Lock()
	rec := e.rec
	e.mu.Unlock()
	if rec != nil {
		rec.On(rs...)
	}
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
