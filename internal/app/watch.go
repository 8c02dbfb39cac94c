package app

import (
	"context"
	"fmt"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
)

// Watch is `devenv top`'s loop: a Sample now and every interval after
// (only one when once) handed to emit, until ctx ends, which is a normal
// end (Ctrl-C), or emit or NVML fails.
func Watch(ctx context.Context, inv gpu.Inventory, eng engine.Engine, procRoot string, interval time.Duration, once bool, emit func(TopSample) error) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		s, err := Sample(ctx, inv, eng, procRoot)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("reading GPU samples through NVML: %w", err)
		}
		if err := emit(s); err != nil {
			return err
		}
		if once {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil // Ctrl-C ends top normally
		case <-tick.C:
		}
	}
}
