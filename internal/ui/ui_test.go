package ui

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
)

func TestModes(t *testing.T) {
	var out, errb bytes.Buffer
	p := &Printer{Out: &out, Err: &errb, JSON: true}
	p.Say("hidden")
	p.Progress("build spark", engine.Progress{ID: "l1", Status: "Downloading", Current: 10, Total: 100})
	p.Warn("careful")
	if err := p.Result(map[string]int{"n": 1}, func(w io.Writer) { _, _ = io.WriteString(w, "text") }); err != nil {
		t.Fatal(err)
	}
	var res map[string]int
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res["n"] != 1 {
		t.Fatalf("stdout %q", out.String())
	}
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"event":"progress"`) || lines[1] != `{"level":"warning","message":"careful"}` {
		t.Fatalf("stderr events %q", errb.String())
	}

	out.Reset()
	errb.Reset()
	q := &Printer{Out: &out, Err: &errb}
	q.Progress("build spark", engine.Progress{Stream: "RUN output\n"})
	q.Progress("pull spark", engine.Progress{ID: "l1", Status: "Downloading", Current: 10, Total: 100})
	if errb.Len() != 0 {
		t.Fatalf("plain mode without --verbose printed build output or byte counts: %q", errb.String())
	}
	q.Progress("build spark", engine.Progress{Error: "boom"})
	if err := q.Result(nil, func(w io.Writer) { _, _ = io.WriteString(w, "text") }); err != nil {
		t.Fatal(err)
	}
	if out.String() != "text" || !strings.Contains(errb.String(), "build spark: boom") {
		t.Fatalf("plain: out %q err %q", out.String(), errb.String())
	}

	errb.Reset()
	tty := &Printer{Out: &out, Err: &errb, TTY: true}
	tty.Progress("pull", engine.Progress{ID: "abc", Status: "Downloading", Current: 2048, Total: 4096})
	tty.Say("done")
	if !strings.Contains(errb.String(), "\rpull: abc Downloading 2.0KiB/4.0KiB") || !strings.HasSuffix(errb.String(), "done\n") {
		t.Fatalf("tty: %q", errb.String())
	}
}

func TestPlainProgressIsOneLinePerStep(t *testing.T) {
	events := []engine.Progress{
		{ID: "a1", Status: "Pulling fs layer"},
		{ID: "a1", Status: "Downloading", Current: 10, Total: 100},
		{ID: "a1", Status: "Download complete"},
		{ID: "a1", Status: "Pull complete"},
		{ID: "b2", Status: "Already exists"},
		{Stream: "Step 1/2 : FROM debian\n"},
		{Stream: " ---> 1234\n"},
		{Stream: "Step 2/2 : RUN echo hi\n"},
		{Stream: "hi\n"},
	}
	tests := []struct {
		name    string
		verbose bool
		want    string
	}{
		{"plain", false, "t: a1 pull complete\nt: b2 already exists\nt: Step 1/2 : FROM debian\nt: Step 2/2 : RUN echo hi\n"},
		{"verbose shows all build output", true, "t: a1 pull complete\nt: b2 already exists\nt | Step 1/2 : FROM debian\nt |  ---> 1234\nt | Step 2/2 : RUN echo hi\nt | hi\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errb bytes.Buffer
			p := &Printer{Out: io.Discard, Err: &errb, Verbose: tt.verbose}
			for _, e := range events {
				p.Progress("t", e)
			}
			if errb.String() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", errb.String(), tt.want)
			}
		})
	}
}

func TestVerboseBuildOutputWithoutColourOffTerminal(t *testing.T) {
	var errb bytes.Buffer
	p := &Printer{Err: &errb, Out: io.Discard, Verbose: true}
	p.Progress("build spark", engine.Progress{Stream: "\x1b[1;31mERROR: no such package\x1b[0m\n"})
	if got, want := errb.String(), "build spark | ERROR: no such package\n"; got != want {
		t.Errorf("verbose output = %q, want %q", got, want)
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "f")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if IsTerminal(f) || IsTerminal(&bytes.Buffer{}) || IsTerminal(nil) {
		t.Error("a file, a buffer or nothing is not a terminal")
	}
	// /dev/null is a character device but no terminal: `devenv exec svc cmd
	// </dev/null >/dev/null` in a script must not ask for a TTY (issue 29).
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = null.Close() }()
	if IsTerminal(null) {
		t.Error("/dev/null, a character device, is not a terminal")
	}
}
