package cli

import (
	"bytes"
	"testing"
)

func TestJSONLogLines(t *testing.T) {
	tests := []struct {
		name   string
		stdout []string // writes, split anywhere
		stderr []string
		want   string
	}{
		{"the engine's timestamps become time",
			[]string{"2026-11-30T16:00:00.123456789Z hello\n"}, []string{"2026-11-30T16:00:01Z oops\r\n"},
			`{"service":"svc","stream":"stdout","time":"2026-11-30T16:00:00.123456789Z","line":"hello"}` + "\n" +
				`{"service":"svc","stream":"stderr","time":"2026-11-30T16:00:01Z","line":"oops"}` + "\n"},
		{"a line without a timestamp is kept whole", []string{"no time here"}, nil,
			`{"service":"svc","stream":"stdout","line":"no time here"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			stdout, stderr, flush := jsonLogSink(&out)("svc")
			for _, s := range tt.stdout {
				stdout.Write([]byte(s))
			}
			for _, s := range tt.stderr {
				stderr.Write([]byte(s))
			}
			flush()
			if out.String() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", out.String(), tt.want)
			}
		})
	}
}
