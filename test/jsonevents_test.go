package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// eventFields are the keys of each kind of --json line on stderr, as the
// README documents them.
var eventFields = map[string][]string{
	"compose":  {"details", "event", "id", "status", "text"},
	"progress": {"current", "error", "event", "id", "status", "stream", "task", "total"},
	"step":     {"event", "status", "task"},
	"warning":  {"level", "message"},
	"error":    {"exit", "level", "message"},
}

// TestUpJSONEvents: with --json, up's stdout is one JSON result and every
// line of its stderr a JSON object of a documented kind with exactly its
// documented fields; the Compose SDK's progress comes as compose events,
// a created and a started one for each container. A second up changes
// nothing and so reports no compose event; down's stop goes through the
// SDK and reports each container stopped.
func TestUpJSONEvents(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, twoBoxes, nil)
	w.must(t, dir, "lock")

	r := w.must(t, dir, "up", "--json")
	decode[map[string]any](t, r.Stdout)
	done := composeDone(t, r.Stderr)
	for _, c := range []string{name + "-db", name + "-app"} {
		for _, text := range []string{"Created", "Started"} {
			if !slices.Contains(done, "Container "+c+" "+text) {
				t.Errorf("up --json reported no compose event %q; done: %v\nstderr:\n%s", "Container "+c+" "+text, done, r.Stderr)
			}
		}
	}

	r = w.must(t, dir, "up", "--json")
	decode[map[string]any](t, r.Stdout)
	if done := composeDone(t, r.Stderr); len(done) > 0 {
		t.Errorf("a second up, with nothing to change, reported compose events %v", done)
	}

	r = w.must(t, dir, "down", "--json")
	done = composeDone(t, r.Stderr)
	for _, c := range []string{name + "-db", name + "-app"} {
		if !slices.Contains(done, "Container "+c+" Stopped") {
			t.Errorf("down --json reported no compose event %q; done: %v\nstderr:\n%s", "Container "+c+" Stopped", done, r.Stderr)
		}
	}
}

// composeDone checks every line of stderr (see eventFields) and returns
// the finished compose events as "ID text".
func composeDone(t *testing.T, stderr string) []string {
	t.Helper()
	var done []string
	kinds := map[string]int{}
	defer func() { t.Logf("stderr: %v lines by kind", kinds) }()
	for i, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if line == "" {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Errorf("stderr line %d is not a JSON object (%v): %s", i+1, err, line)
			continue
		}
		kind, _ := ev["event"].(string)
		if kind == "" {
			kind, _ = ev["level"].(string)
		}
		kinds[kind]++
		want, ok := eventFields[kind]
		if !ok {
			t.Errorf("stderr line %d is of no documented kind: %s", i+1, line)
			continue
		}
		var keys []string
		for k := range ev {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, want) {
			t.Errorf("stderr line %d (%s) has keys %v, want %v: %s", i+1, kind, keys, want, line)
		}
		if kind == "compose" && ev["status"] == "Done" {
			done = append(done, ev["id"].(string)+" "+ev["text"].(string))
		}
	}
	return done
}
