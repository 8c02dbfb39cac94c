// Package ui is how devenv talks to people and to tools: quiet by default,
// JSON with --json (results on stdout, progress events as JSON lines on
// stderr), a live progress display on a terminal and plain lines otherwise.
package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/devenv-dev/devenv/internal/redact"
	"github.com/moby/term"
)

// Printer writes results, notes and progress.
type Printer struct {
	Out, Err io.Writer
	JSON     bool // --json
	Debug    bool // --debug
	Verbose  bool // --verbose: show progress in plain mode too
	TTY      bool // stderr is a terminal

	mu       sync.Mutex
	progress *progressState
}

// New makes a printer for the process's streams.
func New(out, err io.Writer, jsonOut, debug bool) *Printer {
	return &Printer{Out: out, Err: err, JSON: jsonOut, Debug: debug, TTY: IsTerminal(err)}
}

// Result prints the command's result: v as JSON with --json, else text(w).
func (p *Printer) Result(v any, text func(w io.Writer)) error {
	if p.JSON {
		enc := json.NewEncoder(p.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	if text != nil {
		text(p.Out)
	}
	return nil
}

// Say prints a line meant for people (skipped with --json, where the result
// carries the facts). It goes to stderr so stdout stays the command's output.
func (p *Printer) Say(format string, args ...any) {
	if p.JSON {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLine()
	fmt.Fprintf(p.Err, format+"\n", args...)
}

// Warn prints a warning line; with --json it is a JSON line on stderr,
// {"level":"warning","message":...}, as errors are {"level":"error",...}.
func (p *Printer) Warn(format string, args ...any) {
	msg := redact.URLs(fmt.Sprintf(format, args...)) // a mirror's password never reaches the terminal
	if p.JSON {
		p.Event(map[string]any{"level": "warning", "message": msg})
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLine()
	fmt.Fprintf(p.Err, "warning: %s\n", msg)
}

// Debugf prints only with --debug.
func (p *Printer) Debugf(format string, args ...any) {
	if p.Debug {
		p.mu.Lock()
		defer p.mu.Unlock()
		fmt.Fprintf(p.Err, "debug: "+format+"\n", args...)
	}
}

// Event writes one JSON line on stderr (with --json only).
func (p *Printer) Event(v any) {
	if !p.JSON {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	b, err := json.Marshal(v)
	if err == nil {
		_, _ = p.Err.Write(append(b, '\n')) // an event lost with stderr is not worth failing for
	}
}

// IsTerminal reports whether v is a terminal (isatty on its file
// descriptor, as docker compose decides; /dev/null is a character device
// but no terminal): progress redraws only there, exec and logs ask for a
// TTY only there.
func IsTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && f != nil && term.IsTerminal(f.Fd())
}
