package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/jobs"
)

// TestJobLogsReadOnlyUnderDevenvJobs: jobs logs reads the job's own log
// under .devenv/jobs, whatever the job file says, and refuses a log that is
// a symbolic link.
func TestJobLogsReadOnlyUnderDevenvJobs(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("TOP SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		tamper  func(t *testing.T, store *jobs.Store, id string)
		want    string
		wantErr string
	}{
		{"untouched", func(*testing.T, *jobs.Store, string) {}, "real output\n", ""},
		{"job file points elsewhere", func(t *testing.T, store *jobs.Store, id string) {
			path := filepath.Join(store.Dir(), id+".json")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			data = bytes.Replace(data, []byte(store.LogPath(id)), []byte(secret), 1)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "real output\n", ""},
		{"log is a link", func(t *testing.T, store *jobs.Store, id string) {
			if err := os.Remove(store.LogPath(id)); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(secret, store.LogPath(id)); err != nil {
				t.Fatal(err)
			}
		}, "", "symbolic link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(testProject(t, twoServices), Options{})
			store, err := p.Jobs()
			if err != nil {
				t.Fatal(err)
			}
			j, err := store.Submit(jobs.Job{Service: "spark", Command: []string{"true"}})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(store.LogPath(j.ID), []byte("real output\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tt.tamper(t, store, j.ID)
			var out bytes.Buffer
			err = p.FollowJob(t.Context(), j.ID, false, &out)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("FollowJob = %v, want an error saying %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out.String(), "SECRET") || out.String() != tt.want {
				t.Errorf("jobs logs printed %q, want %q", out.String(), tt.want)
			}
		})
	}
}

func TestJobsDirectoryThatIsALinkIsRefused(t *testing.T) {
	p := New(testProject(t, twoServices), Options{})
	outside := t.TempDir()
	if err := os.MkdirAll(p.StateDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(p.StateDir(), "jobs")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Jobs(); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("Jobs() with .devenv/jobs a link = %v, want a refusal", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote through the link: %v", entries)
	}
}
