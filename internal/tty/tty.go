// Package tty is the terminal side of an interactive command in a
// container: whether a stream is a terminal, raw mode while the command
// runs, and the terminal's size now and whenever it changes (SIGWINCH;
// Windows has no such signal, so the size is sent once there).
package tty

import (
	"os"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/moby/term"
)

// Is reports whether v is a terminal (a character device).
func Is(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Raw puts the terminal in raw mode for an interactive exec and delivers
// its size now and whenever it changes, until restore.
func Raw(in any) (restore func(), resize <-chan engine.TermSize) {
	f, ok := in.(*os.File)
	if !ok {
		return func() {}, nil
	}
	fd := f.Fd()
	state, err := term.SetRawTerminal(fd)
	if err != nil {
		return func() {}, nil
	}
	ch := make(chan engine.TermSize, 1)
	send := func() {
		if ws, err := term.GetWinsize(fd); err == nil {
			select {
			case ch <- engine.TermSize{Width: uint(ws.Width), Height: uint(ws.Height)}:
			default:
			}
		}
	}
	send()
	stop := onResize(send)
	return func() { stop(); _ = term.RestoreTerminal(fd, state) }, ch
}
