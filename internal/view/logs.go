package view

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// LogLines renders the log lines app.Project.Logs hands over, as they
// come: each with a "service | " prefix when prefixed (several services
// are shown), or with asJSON as one LogLine object a line, the engine's
// timestamp at the start of the line becoming its time.
func LogLines(w io.Writer, prefixed, asJSON bool) func(service, stream string, line []byte) {
	if asJSON {
		return func(service, stream string, line []byte) {
			text := strings.TrimRight(string(line), "\r\n")
			ll := LogLine{Service: service, Stream: stream, Line: text}
			if t, rest, ok := strings.Cut(text, " "); ok {
				if _, err := time.Parse(time.RFC3339Nano, t); err == nil {
					ll.Time, ll.Line = t, rest
				}
			}
			b, _ := json.Marshal(ll)
			_, _ = w.Write(append(b, '\n')) // a closed stdout ends the command through the stream
		}
	}
	return func(service, _ string, line []byte) {
		if prefixed {
			fmt.Fprint(w, service+" | ")
		}
		_, _ = w.Write(line) // as above
	}
}

// LogLine is one line of a service's log under --json.
type LogLine struct {
	Service string `json:"service"`
	Stream  string `json:"stream"`
	Time    string `json:"time,omitempty"`
	Line    string `json:"line"`
}
