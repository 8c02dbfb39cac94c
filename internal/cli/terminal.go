package cli

import (
	"os"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/moby/term"
)

// rawTerminal puts the terminal in raw mode for an interactive exec and
// delivers its size now and whenever it changes.
func rawTerminal(in any) (restore func(), resize <-chan engine.TermSize) {
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
