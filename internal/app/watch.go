package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
)

// MinEngineInterval is the shortest time between top's samples read
// through the engine: each one runs a probe container there.
const MinEngineInterval = 5 * time.Second

// TopOptions steer Top.
type TopOptions struct {
	ProcRoot string        // where processes' cgroups are read: /proc
	Interval time.Duration // between samples
	Once     bool          // one sample only
}

// Top is `devenv top`: samples of this machine's GPUs handed to emit (see
// Watch), the GPUs read through opts.GPUs. When NVML cannot be read, emit
// gets one sample without GPUs whose Note says why. Without an engine
// (opts.Engine) processes show container ids only, which opts.Out says.
func Top(ctx context.Context, opts Options, o TopOptions, emit func(TopSample) error) error {
	opts = opts.withDefaults()
	eng, err := opts.Engine(ctx)
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		opts.Out.Say("the Docker engine is unreachable, so processes show container ids only: %s", first)
		eng = nil
	} else {
		defer func() { _ = eng.Close() }()
	}
	inv, path, err := chooseGPUs(ctx, opts, eng, nil)
	if err != nil {
		return emit(TopSample{Time: time.Now().UTC(), GPUs: []TopGPU{}, Note: NoGPUNote(err)})
	}
	defer func() { _ = inv.Close() }()
	if path == GPUPathEngine && !o.Once && o.Interval < MinEngineInterval {
		opts.Out.Say("sampling the engine's GPUs every %s (each sample is a probe container there)", MinEngineInterval)
		o.Interval = MinEngineInterval
	}
	return Watch(ctx, inv, eng, o.ProcRoot, o.Interval, o.Once, emit)
}

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
