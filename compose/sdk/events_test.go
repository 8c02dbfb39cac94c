package sdk

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/devenv-dev/devenv/internal/view/execview"
	"github.com/docker/compose/v5/pkg/api"
)

// TestEventsOutput: what devenv prints of the SDK's events, for sequences
// the SDK reported on Docker 20.10 (testdata/events/NAME.sdk.json: the
// api.Resource values of an Up from nothing, an Up that recreates one of
// two services, a Stop, and an Up whose create the engine refused), in
// each output mode. Golden files: testdata/events/NAME.golden (-update).
func TestEventsOutput(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "events", "*.sdk.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded sequences in testdata/events (%v)", err)
	}
	modes := []struct {
		name               string
		json, tty, verbose bool
	}{
		{"--json", true, false, false},
		{"terminal", false, true, false},
		{"plain", false, false, false},
		{"plain --verbose", false, false, true},
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".sdk.json")
		t.Run(name, func(t *testing.T) {
			recorded := readRecorded(t, file)
			var got bytes.Buffer
			for _, m := range modes {
				var stderr, stdout bytes.Buffer
				p := &ui.Printer{Out: &stdout, Err: &stderr, JSON: m.json, TTY: m.tty, Verbose: m.verbose}
				(&events{emit: execview.Render(p)}).On(recorded...)
				if stdout.Len() > 0 {
					t.Errorf("%s: SDK events went to stdout, which is the command's result: %q", m.name, stdout.String())
				}
				if m.json {
					checkShape(t, stderr.String(), len(recorded))
				}
				got.WriteString("== " + m.name + "\n" + stderr.String())
			}
			goldenfile.Check(t, filepath.Join("testdata", "events", name+".golden"), got.Bytes())
		})
	}
}

// composeFields are the keys of every compose event, as the README says.
var composeFields = []string{"details", "event", "id", "status", "text"}

// checkShape holds each line of --json output to the documented shape: one
// JSON object a line, one line an event, these keys and no others, a known
// status, an id and a text.
func checkShape(t *testing.T, out string, events int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != events {
		t.Errorf("--json printed %d lines for %d events:\n%s", len(lines), events, out)
	}
	for i, line := range lines {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Errorf("line %d is not a JSON object: %v\n%s", i+1, err, line)
			continue
		}
		keys := make([]string, 0, len(ev))
		for k := range ev {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, composeFields) {
			t.Errorf("line %d has keys %v, want %v: %s", i+1, keys, composeFields, line)
		}
		if ev["event"] != "compose" || !slices.Contains([]any{"Working", "Done", "Warning", "Error"}, ev["status"]) || ev["id"] == "" || ev["text"] == "" {
			t.Errorf("line %d: want event compose, status Working, Done, Warning or Error, an id and a text: %s", i+1, line)
		}
	}
}

func readRecorded(t *testing.T, file string) []api.Resource {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rs []api.Resource
	if err := json.Unmarshal(b, &rs); err != nil || len(rs) == 0 {
		t.Fatalf("%s: want a JSON list of the SDK's events (api.Resource): %v", file, err)
	}
	return rs
}
