package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/jobs"
	"github.com/devenv-dev/devenv/internal/remote"
)

// markRunning makes a queued job look as a live runner runs it (this
// process stands in for the runner, so a cancel is a request to it).
func markRunning(t *testing.T, store *jobs.Store, j jobs.Job) {
	t.Helper()
	j.State, j.RunnerPID = jobs.Running, os.Getpid()
	b, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(store.Dir(), j.ID+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestWatchRestartsTheJobsUsingAChangedFile: a synced change to a running
// job's file cancels that job and submits it again with the same command;
// a job using other files, and every job with NoJobRestart, is left alone.
func TestWatchRestartsTheJobsUsingAChangedFile(t *testing.T) {
	for _, off := range []bool{false, true} {
		w := newWorld(t, gpuImage, map[string]string{"etl.py": "print(1)\n", "other.sh": "true\n"})
		p := w.open(t)
		store, err := p.Jobs()
		if err != nil {
			t.Fatal(err)
		}
		etl, _ := store.Submit(jobs.Job{Service: "train", Command: []string{"spark-submit", "/workspace/etl.py", "--day", "1"}})
		other, _ := store.Submit(jobs.Job{Service: "train", Command: []string{"sh", "-c", "sh /workspace/other.sh"}})
		markRunning(t, store, etl)
		markRunning(t, store, other)
		runners := 0
		var told []string
		o := WatchOptions{NoJobRestart: off, JobRestarted: func(old, again jobs.Job, file string) {
			told = append(told, old.ID+">"+again.ID+":"+file)
		}}
		ch := remote.Change{Sent: []string{"etl.py", "README.md"}}
		p.restartTouchedJobs(ch, o, func(*jobs.Store) error { runners++; return nil })
		list, err := store.List()
		if err != nil {
			t.Fatal(err)
		}
		if off {
			if len(list) != 2 || runners != 0 {
				t.Errorf("with NoJobRestart: %d jobs, %d runners", len(list), runners)
			}
			continue
		}
		if len(list) != 3 || runners != 1 || !slices.Equal(told, []string{"1>3:etl.py"}) {
			t.Fatalf("jobs %+v, runners %d, told %v", list, runners, told)
		}
		byID := map[string]jobs.Job{}
		for _, j := range list {
			byID[j.ID] = j
		}
		if !byID["1"].CancelRequested || byID["2"].CancelRequested {
			t.Errorf("cancel asked of etl %v, of other %v", byID["1"].CancelRequested, byID["2"].CancelRequested)
		}
		if again := byID["3"]; again.State != jobs.Queued || strings.Join(again.Command, " ") != "spark-submit /workspace/etl.py --day 1" || again.Service != "train" {
			t.Errorf("submitted again as %+v", again)
		}
		// a second change while the cancel is pending does not restart it twice
		p.restartTouchedJobs(ch, o, func(*jobs.Store) error { runners++; return nil })
		if list, _ := store.List(); len(list) != 3 {
			t.Errorf("a pending cancel was restarted again: %d jobs", len(list))
		}
	}
}
