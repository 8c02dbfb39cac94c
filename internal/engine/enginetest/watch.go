package enginetest

import (
	"context"

	"github.com/devenv-dev/devenv/internal/engine"
)

var _ engine.Watcher = (*Fake)(nil)

// WatchProject records the call ("WatchProject", with watch as its
// argument) and returns Fail["WatchProject"] when set; else it runs
// WatchFunc (a test stands for Compose's Watch there, calling
// watch.Rebuild as a change would), or waits until ctx ends.
func (f *Fake) WatchProject(ctx context.Context, watch engine.ProjectWatch) error {
	f.mu.Lock()
	err := f.record("WatchProject", watch)
	fn := f.WatchFunc
	f.mu.Unlock()
	if err != nil {
		return err
	}
	if fn != nil {
		return fn(ctx, watch)
	}
	<-ctx.Done()
	return nil
}
