package images

import (
	"strings"

	"github.com/devenv-dev/devenv/internal/engine"
)

// tailLines is how many lines of build output a failed build reports.
const tailLines = 20

// outputTail keeps the last lines of a build's output, without colour codes,
// so that a failed build can say what went wrong without --verbose.
type outputTail struct {
	lines   []string
	partial string
}

// add records one progress message's text.
func (t *outputTail) add(p engine.Progress) {
	if p.Stream == "" {
		return
	}
	text := strings.ReplaceAll(engine.StripANSI(t.partial+p.Stream), "\r\n", "\n")
	parts := strings.Split(text, "\n")
	t.partial = parts[len(parts)-1]
	for _, l := range parts[:len(parts)-1] {
		if i := strings.LastIndexByte(l, '\r'); i >= 0 { // progress bars redraw a line
			l = l[i+1:]
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		t.lines = append(t.lines, strings.TrimRight(l, " \t"))
		if len(t.lines) > tailLines {
			t.lines = t.lines[len(t.lines)-tailLines:]
		}
	}
}

// String is the kept lines, indented, or "" when there were none.
func (t *outputTail) String() string {
	lines := t.lines
	if p := strings.TrimSpace(t.partial); p != "" {
		lines = append(lines[:len(lines):len(lines)], p)
	}
	if len(lines) == 0 {
		return ""
	}
	return "  " + strings.Join(lines, "\n  ")
}
