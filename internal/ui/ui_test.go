package ui

import (
	"bytes"
	"encoding/json"
	"io"
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
	q.Progress("build spark", engine.Progress{Stream: "Step 1/3\n"})
	if errb.Len() != 0 {
		t.Fatalf("plain mode without --verbose printed progress: %q", errb.String())
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
