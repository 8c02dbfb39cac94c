package jobs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
)

func TestSubmitAndList(t *testing.T) {
	s := testStore(t)
	for i := 0; i < 11; i++ {
		submit(t, s, "spark", "spark-submit", "/workspace/job.py")
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 11 || list[0].ID != "1" || list[9].ID != "10" || list[10].ID != "11" {
		t.Fatalf("IDs in order: %v", ids(list))
	}
	j := list[0]
	if j.State != Queued || j.Log != filepath.Join(s.Dir(), "1.log") || j.Submitted.IsZero() {
		t.Errorf("submitted job %+v", j)
	}
	for _, f := range []string{j.Log, filepath.Join(s.Dir(), "1.json")} {
		if st, err := os.Stat(f); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v (%v), want 0600: the command and the output are the user's", f, st.Mode().Perm(), err)
		}
	}
	if _, err := s.Submit(Job{Service: "spark"}); err == nil {
		t.Error("a job without a command was accepted")
	}
}

func TestListReportsBadFilesAndKeepsTheRest(t *testing.T) {
	s := testStore(t)
	submit(t, s, "a", "true")
	if err := os.WriteFile(filepath.Join(s.Dir(), "2.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if len(list) != 1 || err == nil || !strings.Contains(err.Error(), "2.json") || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("list %v, err %v", ids(list), err)
	}
	if j := submit(t, s, "a", "true"); j.ID != "3" {
		t.Errorf("next ID after a bad 2.json = %s, want 3", j.ID)
	}
}

func TestGetUnknown(t *testing.T) {
	s := testStore(t)
	for _, id := range []string{"1", "../x", "", "a/b"} {
		if _, err := s.Get(id); !errors.Is(err, ErrNoJob) {
			t.Errorf("Get(%q) = %v, want ErrNoJob", id, err)
		}
	}
}

func ids(list []Job) []string {
	var out []string
	for _, j := range list {
		out = append(out, j.ID)
	}
	return out
}

func TestConflicts(t *testing.T) {
	tests := []struct {
		name string
		a, b Resources
		want bool
	}{
		{"same service", Resources{Service: "s"}, Resources{Service: "s"}, true},
		{"two CPU services", Resources{Service: "a"}, Resources{Service: "b"}, false},
		{"CPU and GPU service", Resources{Service: "a"}, Resources{Service: "b", GPUs: []string{"0"}}, false},
		{"unknown", Resources{Service: "a", Unknown: true}, Resources{Service: "b"}, true},
		{"same index", Resources{Service: "a", GPUs: []string{"0"}}, Resources{Service: "b", GPUs: []string{"1", "0"}}, true},
		{"different indexes", Resources{Service: "a", GPUs: []string{"0"}}, Resources{Service: "b", GPUs: []string{"1"}}, false},
		{"different UUIDs", Resources{Service: "a", GPUs: []string{"GPU-a"}}, Resources{Service: "b", GPUs: []string{"GPU-b"}}, false},
		{"index and UUID may be one GPU", Resources{Service: "a", GPUs: []string{"0"}}, Resources{Service: "b", GPUs: []string{"GPU-b"}}, true},
		{"all GPUs", Resources{Service: "a", AllGPUs: true}, Resources{Service: "b", GPUs: []string{"3"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.Conflicts(tt.b); got != tt.want {
				t.Errorf("a.Conflicts(b) = %v, want %v", got, tt.want)
			}
			if got := tt.b.Conflicts(tt.a); got != tt.want {
				t.Errorf("b.Conflicts(a) = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestResourcesOf(t *testing.T) {
	gpu := [][]string{{"gpu"}}
	tests := []struct {
		name string
		reqs []engine.DeviceRequest
		want Resources
	}{
		{"no requests", nil, Resources{Service: "s"}},
		{"device ids", []engine.DeviceRequest{{DeviceIDs: []string{"0", "GPU-x"}, Capabilities: gpu}}, Resources{Service: "s", GPUs: []string{"0", "GPU-x"}}},
		{"count", []engine.DeviceRequest{{Count: 2, Capabilities: gpu}}, Resources{Service: "s", AllGPUs: true}},
		{"all", []engine.DeviceRequest{{Count: -1, Driver: "nvidia"}}, Resources{Service: "s", AllGPUs: true}},
		{"not a GPU", []engine.DeviceRequest{{Count: 1, Capabilities: [][]string{{"tpu"}}}}, Resources{Service: "s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ResourcesOf("s", engine.ContainerState{DeviceRequests: tt.reqs})
			if strings.Join(got.GPUs, ",") != strings.Join(tt.want.GPUs, ",") || got.AllGPUs != tt.want.AllGPUs || got.Unknown {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
