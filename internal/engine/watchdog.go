package engine

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// errEngineSilent is the cause a watchdog gives when the engine stopped
// answering during a stream that may legitimately be quiet for long.
var errEngineSilent = errors.New("the engine stopped answering while the operation ran")

// watchdog pings the engine while a long stream (a build, a pull) runs: a
// RUN step may print nothing for many minutes, so silence on the stream
// itself proves nothing, but an engine that does not answer a ping within
// AnswerTimeout is gone. Then the stream's context is cancelled.
type watchdog struct {
	fired  atomic.Bool
	cancel context.CancelFunc
	done   chan struct{}
}

// watch starts a watchdog for a stream running under the returned context.
func (d *docker) watch(ctx context.Context, timeout time.Duration) (context.Context, *watchdog) {
	sctx, cancel := context.WithCancel(ctx)
	w := &watchdog{cancel: cancel, done: make(chan struct{})}
	interval := timeout / 2
	if interval > 30*time.Second {
		interval = 30 * time.Second
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-sctx.Done():
				return
			case <-t.C:
				pctx, pcancel := context.WithTimeout(sctx, timeout)
				_, err := d.cli.Ping(pctx)
				silent := err != nil && sctx.Err() == nil
				pcancel()
				if silent {
					w.fired.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	return sctx, w
}

// stop ends the watchdog; err is the stream's result, replaced by an
// unreachable-engine error when the watchdog cut the stream.
func (w *watchdog) stop(d *docker, op string, timeout time.Duration, err error) error {
	close(w.done)
	w.cancel()
	if w.fired.Load() {
		return &Error{Op: op, Kind: ErrUnreachable, Hint: hintStalled, Where: d.host,
			Err: fmt.Errorf("%w (no answer to a ping for %s)", errEngineSilent, timeout)}
	}
	return err
}
