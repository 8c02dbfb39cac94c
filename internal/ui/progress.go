package ui

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/engine"
)

type progressState struct {
	task    string
	lastLen int
}

// Progress renders one engine progress event of a long task (a pull or a
// build) named task: a single updating line on a terminal, a JSON event with
// --json, and in plain mode one line per build step and image layer (every
// line of build output with --verbose).
func (p *Printer) Progress(task string, e engine.Progress) {
	if p.JSON {
		p.Event(map[string]any{"event": "progress", "task": task, "id": e.ID, "status": e.Status,
			"current": e.Current, "total": e.Total, "stream": strings.TrimRight(e.Stream, "\n"), "error": e.Error})
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Error != "" {
		p.clearLine()
		fmt.Fprintf(p.Err, "%s: %s\n", task, e.Error)
		return
	}
	if p.TTY {
		p.drawLine(task, e)
		return
	}
	if p.Verbose && e.Stream != "" {
		stream := engine.StripANSI(e.Stream) // not a terminal: colour codes would be garbage
		fmt.Fprintf(p.Err, "%s | %s", task, stream)
		if !strings.HasSuffix(stream, "\n") {
			fmt.Fprintln(p.Err)
		}
		return
	}
	if line := stepLine(e); line != "" {
		fmt.Fprintf(p.Err, "%s: %s\n", task, line)
	}
}

// stepLine is what plain mode (not a terminal: CI logs, pipes) prints for
// an event: one line per build step and per image layer in place, none for
// byte counts, so a log shows where a pull or build is without flooding.
func stepLine(e engine.Progress) string {
	if s := strings.TrimSpace(e.Stream); strings.HasPrefix(s, "Step ") {
		return s
	}
	switch e.Status {
	case "Pull complete", "Already exists":
		return strings.TrimSpace(e.ID + " " + strings.ToLower(e.Status))
	}
	return ""
}

// Step prints the start or end of a long task: on a terminal and in plain
// mode as a line, with --json as an event.
func (p *Printer) Step(task, status string) {
	if p.JSON {
		p.Event(map[string]any{"event": "step", "task": task, "status": status})
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLine()
	fmt.Fprintf(p.Err, "%s: %s\n", task, status)
}

func (p *Printer) drawLine(task string, e engine.Progress) {
	line := task + ": " + describe(e)
	if len(line) > 100 {
		line = line[:97] + "..."
	}
	pad := ""
	if p.progress != nil && p.progress.lastLen > len(line) {
		pad = strings.Repeat(" ", p.progress.lastLen-len(line))
	}
	fmt.Fprintf(p.Err, "\r%s%s", line, pad)
	p.progress = &progressState{task: task, lastLen: len(line)}
}

func (p *Printer) clearLine() {
	if p.TTY && p.progress != nil {
		fmt.Fprintf(p.Err, "\r%s\r", strings.Repeat(" ", p.progress.lastLen))
		p.progress = nil
	}
}

func describe(e engine.Progress) string {
	switch {
	case e.Stream != "":
		return strings.TrimSpace(e.Stream)
	case e.Total > 0:
		return fmt.Sprintf("%s %s %s/%s", e.ID, e.Status, human(e.Current), human(e.Total))
	default:
		return strings.TrimSpace(e.ID + " " + e.Status)
	}
}

func human(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%dB", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f%ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
