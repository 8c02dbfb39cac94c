package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestDependsOnCompletedAsCompose: a service that depends on a one-shot
// service with condition service_completed_successfully starts after the
// one-shot has exited 0, as Compose starts it (the SDK's start waits for
// the condition), and up says nothing to the contrary (it used to warn
// that the condition was treated as service_started).
func TestDependsOnCompletedAsCompose(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, name := w.project(t, "compose: [compose.yaml]\n", map[string]string{"compose.yaml": `services:
  init:
    image: nvcr.io/` + plainBase + `
    command: ["sh", "-c", "sleep 3"]
  app:
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    depends_on:
      init: {condition: service_completed_successfully}
`})
	w.must(t, dir, "lock")
	r := w.must(t, dir, "up")
	if strings.Contains(r.Stderr, "service_completed_successfully") {
		t.Errorf("up warns about the condition Compose applies:\n%s", r.Stderr)
	}
	initState, appState := inspect(t, name+"-init").State, inspect(t, name+"-app").State
	if initState.Status != "exited" || initState.ExitCode != 0 {
		t.Fatalf("init is %s (exit %d), want exited 0", initState.Status, initState.ExitCode)
	}
	finished, err1 := time.Parse(time.RFC3339Nano, initState.FinishedAt)
	started, err2 := time.Parse(time.RFC3339Nano, appState.StartedAt)
	if err1 != nil || err2 != nil {
		t.Fatalf("timestamps: %v %v", err1, err2)
	}
	if started.Before(finished) {
		t.Errorf("app started at %s, before init finished at %s: the condition was not waited for", started, finished)
	}
}
