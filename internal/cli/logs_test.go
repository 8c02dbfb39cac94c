package cli

import (
	"bytes"
	"testing"
)

func TestLogWriters(t *testing.T) {
	tests := []struct {
		name          string
		several, json bool
		stdout        []string // writes, split anywhere
		stderr        []string
		want          string
	}{
		{"one service, plain", false, false, []string{"a\nb", "c\n"}, []string{"err\n"}, "a\nbc\nerr\n"},
		{"several services get a prefix", true, false, []string{"a\n"}, []string{"partial"}, "svc | a\nsvc | partial\n"},
		{"json with the engine's timestamps", false, true,
			[]string{"2026-11-30T16:00:00.123456789Z hello\n"}, []string{"2026-11-30T16:00:01Z oops\r\n"},
			`{"service":"svc","stream":"stdout","time":"2026-11-30T16:00:00.123456789Z","line":"hello"}` + "\n" +
				`{"service":"svc","stream":"stderr","time":"2026-11-30T16:00:01Z","line":"oops"}` + "\n"},
		{"json without a timestamp keeps the whole line", true, true, []string{"no time here"}, nil,
			`{"service":"svc","stream":"stdout","line":"no time here"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			stdout, stderr := logWriters(&out, "svc", tt.several, tt.json)
			for _, s := range tt.stdout {
				stdout.Write([]byte(s))
			}
			stdout.flush()
			for _, s := range tt.stderr {
				stderr.Write([]byte(s))
			}
			stderr.flush()
			if out.String() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", out.String(), tt.want)
			}
		})
	}
}
