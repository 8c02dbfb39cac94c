package view

import (
	"bytes"
	"testing"
)

func TestLogLines(t *testing.T) {
	tests := []struct {
		name          string
		several, json bool
		lines         [][2]string // stream, line (whole, as app.Logs hands them)
		want          string
	}{
		{"one service, plain", false, false, [][2]string{{"stdout", "a\n"}, {"stderr", "err\n"}}, "a\nerr\n"},
		{"several services get a prefix", true, false, [][2]string{{"stdout", "a\n"}, {"stderr", "partial\n"}}, "svc | a\nsvc | partial\n"},
		{"json with the engine's timestamps", false, true,
			[][2]string{{"stdout", "2026-11-30T16:00:00.123456789Z hello\n"}, {"stderr", "2026-11-30T16:00:01Z oops\r\n"}},
			`{"service":"svc","stream":"stdout","time":"2026-11-30T16:00:00.123456789Z","line":"hello"}` + "\n" +
				`{"service":"svc","stream":"stderr","time":"2026-11-30T16:00:01Z","line":"oops"}` + "\n"},
		{"json without a timestamp keeps the whole line", true, true, [][2]string{{"stdout", "no time here\n"}},
			`{"service":"svc","stream":"stdout","line":"no time here"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			emit := LogLines(&out, tt.several, tt.json)
			for _, l := range tt.lines {
				emit("svc", l[0], []byte(l[1]))
			}
			if out.String() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", out.String(), tt.want)
			}
		})
	}
}
