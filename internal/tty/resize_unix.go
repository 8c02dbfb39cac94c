//go:build !windows

package tty

import (
	"os"
	"os/signal"
	"syscall"
)

func onResize(f func()) (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sig:
				f()
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(sig); close(done) }
}
