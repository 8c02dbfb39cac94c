package app

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

const twoPlain = "name: demo\nservices:\n  a:\n    profile: image\n    image: postgres:16\n  b:\n    profile: image\n    image: redis:7\n"

// upTwoPlain is a running two-service project on the fake engine.
func upTwoPlain(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, twoPlain, map[string]string{})
	w.eng.AddImage("postgres:16", nil)
	w.eng.AddImage("redis:7", nil)
	w.lock(t)
	if _, err := w.open(t).Up(t.Context(), UpOptions{}); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestPsReadsThroughTheProjectReader: ps asks the executor's project
// reader (the Compose SDK on a real engine) once.
func TestPsReadsThroughTheProjectReader(t *testing.T) {
	w := upTwoPlain(t)
	st, err := w.open(t).Ps(t.Context(), PsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 2 || st[0].Service != "a" || st[1].Service != "b" || st[0].State != "running" {
		t.Errorf("ps: %+v", st)
	}
	if n := len(w.eng.CallsTo("PsProject")); n != 1 {
		t.Errorf("ps read the project %d times through the reader, want once", n)
	}
}

// TestLogsLines: logs reads through the project reader, service after
// service, lines as Compose gives them (a last line without a newline is
// Compose's to drop, and no stream is known); with Streams (logs --json)
// devenv's own reads give each line's stream and that last line too.
func TestLogsLines(t *testing.T) {
	w := upTwoPlain(t)
	w.eng.LogOutput = map[string]string{"demo-a": "a1\na2", "demo-b": "b1\n"}
	for _, tt := range []struct {
		name    string
		streams bool
		want    string
	}{
		{"through Compose", false, "a  a1|b  b1|"},
		{"with their streams", true, "a stdout a1|a stdout a2|b stdout b1|"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got strings.Builder
			err := w.open(t).Logs(t.Context(), LogsOptions{Streams: tt.streams, Line: func(service, stream string, line []byte) {
				got.WriteString(service + " " + stream + " " + strings.TrimSuffix(string(line), "\n") + "|")
			}})
			if err != nil || got.String() != tt.want {
				t.Errorf("logs: %q, %v; want %q", got.String(), err, tt.want)
			}
		})
	}
}

// TestExecThroughTheProjectReader: exec passes the command's exit code
// through, and a service whose container is stopped is "not running" with
// the hint to start it.
func TestExecThroughTheProjectReader(t *testing.T) {
	w := upTwoPlain(t)
	w.eng.ExecFunc = func(o engine.ExecOptions) (int, string) { return 5, strings.Join(o.Cmd, " ") + "\n" }
	var out strings.Builder
	code, err := w.open(t).Exec(t.Context(), "a", ExecOptions{Cmd: []string{"echo", "hi"}, Stdout: &out})
	if err != nil || code != 5 || out.String() != "echo hi\n" {
		t.Errorf("exec a: exit %d, %q, %v", code, out.String(), err)
	}
	if err := w.eng.Stop(t.Context(), "demo-b", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := w.open(t).Exec(t.Context(), "b", ExecOptions{Cmd: []string{"true"}}); err == nil || !strings.Contains(err.Error(), "service b is not running (its container demo-b is exited): run devenv start b") {
		t.Errorf("exec in a stopped service: %v", err)
	}
}

// TestReadersRefuseOthersContainers: exec and logs reach containers by
// Compose's labels; a container of a `docker compose -p demo` project
// that devenv did not make is refused, naming it, not exec'd into or read.
func TestReadersRefuseOthersContainers(t *testing.T) {
	w := upTwoPlain(t)
	w.eng.AddImage("nginx:1", nil)
	if _, err := w.eng.Create(t.Context(), engine.ContainerSpec{Name: "theirs-a", Image: "nginx:1", Labels: map[string]string{
		labels.ComposeProject: "demo", labels.ComposeService: "a", labels.ComposeOneoff: "False", labels.ComposeConfigHash: "x"}}); err != nil {
		t.Fatal(err)
	}
	p := w.open(t)
	_, err := p.Exec(t.Context(), "a", ExecOptions{Cmd: []string{"true"}})
	if err == nil || !strings.Contains(err.Error(), "theirs-a is in Compose project demo but not labelled for devenv's project demo") {
		t.Errorf("exec a: %v, want the foreign container named", err)
	}
	err = p.Logs(t.Context(), LogsOptions{Line: func(string, string, []byte) {}})
	if err == nil || !strings.Contains(err.Error(), "give one of the two projects another name") {
		t.Errorf("logs: %v, want the foreign container refused", err)
	}
	if n := len(w.eng.CallsTo("ExecProject")) + len(w.eng.CallsTo("LogsProject")); n != 0 {
		t.Errorf("%d reads reached the project through the SDK stand-in", n)
	}
	if _, err := p.Exec(t.Context(), "b", ExecOptions{Cmd: []string{"true"}}); err != nil {
		t.Errorf("exec b, a service the other project does not have: %v", err)
	}
}
