package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/devenv-dev/devenv/internal/app"
)

// interruptible is a context that the first Ctrl-C (SIGINT, or SIGTERM)
// cancels, so the operation in flight stops and devenv exits 130 after
// cleaning up; a second one ends devenv at once (exit 130), as Compose does,
// for a cleanup that hangs. stop releases the signals.
func interruptible(parent context.Context, errw io.Writer) (ctx context.Context, stop func()) {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	ctx, stopWatch := watchInterrupts(parent, sig, errw, os.Exit)
	return ctx, func() { signal.Stop(sig); stopWatch() }
}

// watchInterrupts cancels ctx on the first value of sig and calls exit on
// the second.
func watchInterrupts(parent context.Context, sig <-chan os.Signal, errw io.Writer, exit func(int)) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			cancel()
		case <-done:
			return
		}
		select {
		case <-sig:
			fmt.Fprintln(errw, "interrupted again: exiting now (the next devenv up converges)")
			exit(app.ExitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() { close(done); cancel() }
}
