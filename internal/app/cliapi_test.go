package app

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/reconcile"
)

func TestExecOptionsForEngine(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader("")
	detached, restore := ExecOptions{Cmd: []string{"sleep", "9"}, User: "me", TTY: true, Detach: true, Stdin: in, Stdout: &out}.forEngine()
	restore()
	if !detached.Detach || detached.TTY || detached.Stdin != nil || detached.Stdout != nil || detached.User != "me" {
		t.Errorf("detached: %+v, want the command alone, with no streams or terminal", detached)
	}
	attached, restore := ExecOptions{Cmd: []string{"sh"}, TTY: true, Stdin: in, Stdout: &out, Stderr: &out}.forEngine()
	restore()
	if attached.TTY || attached.Resize != nil || attached.Stdin != in || attached.Stdout != &out || attached.Stderr != &out {
		t.Errorf("a TTY asked for on streams that are no terminal: %+v, want the streams and no TTY", attached)
	}
}

func TestPsFilter(t *testing.T) {
	p := New(testProject(t, twoServices), Options{})
	all := []reconcile.Status{{Service: "box", State: "running"}, {Service: "spark", State: "exited"}, {Service: "old", State: "running"}}
	tests := []struct {
		o    PsOptions
		want []string
	}{
		{PsOptions{}, []string{"box", "spark", "old"}},
		{PsOptions{States: []string{"running"}}, []string{"box", "old"}},
		{PsOptions{Filter: "status=exited"}, []string{"spark"}},
		{PsOptions{NoOrphans: true}, []string{"box", "spark"}},
	}
	for _, tt := range tests {
		keep, err := p.psFilter(tt.o)
		if err != nil {
			t.Fatalf("%+v: %v", tt.o, err)
		}
		var got []string
		for _, s := range all {
			if keep(s) {
				got = append(got, s.Service)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%+v keeps %v, want %v", tt.o, got, tt.want)
		}
	}
	for _, bad := range []PsOptions{{States: []string{"stopped"}}, {Filter: "name=box"}} {
		if _, err := p.psFilter(bad); ExitCode(err) != ExitUsage {
			t.Errorf("%+v: %v (exit %d), want a usage error", bad, err, ExitCode(err))
		}
	}
}

func TestRemovedOrphansAndRebuildChanges(t *testing.T) {
	r := &Result{Changes: []reconcile.Change{
		{Service: "app", Action: reconcile.Recreated},
		{Service: "old", Action: reconcile.Removed, Detail: "orphan container demo-old"},
		{Service: "app", Action: reconcile.Removed, Detail: "container demo-app"},
	}}
	if got := r.RemovedOrphans(); len(got) != 1 || got[0] != (RemovedOrphan{Service: "old", Container: "demo-old"}) {
		t.Errorf("RemovedOrphans = %+v, want demo-old of service old", got)
	}
	d := DevelopRebuild{Changes: []reconcile.Change{{Service: "a", Action: reconcile.Unchanged}, {Service: "b", Action: reconcile.Built}}}
	if got := d.Changed(); len(got) != 1 || got[0].Service != "b" || len(d.Changes) != 2 {
		t.Errorf("Changed = %+v (changes left %d), want b's alone, d's changes kept", got, len(d.Changes))
	}
}

func TestStopBackgroundWatch(t *testing.T) {
	p := New(testProject(t, twoServices), Options{})
	if pid, err := p.StopBackgroundWatch(); pid != 0 || err != nil {
		t.Errorf("no watch.pid: pid %d, %v; want none and no error", pid, err)
	}
	if err := os.MkdirAll(p.StateDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.StateDir(), watchPid), []byte("nonsense\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := p.StopBackgroundWatch(); err == nil || !strings.Contains(err.Error(), ".devenv/watch.pid does not hold a process id") {
		t.Errorf("a watch.pid without a pid: %v, want it said", err)
	}
}
