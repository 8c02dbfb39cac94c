package gpusuite

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCommittedTranscripts parses every transcript the suite wrote on a GPU
// machine and committed: each is whole, records every check once, and the
// latest 1-GPU and 2-GPU runs are both there.
func TestCommittedTranscripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "real", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	byGPUs := map[int]string{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := Parse(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			var names []string
			for _, c := range tr.Checks {
				names = append(names, c.Name)
			}
			if want := ChecksOn(tr.Date.Format("2006-01-02")); !slices.Equal(names, want) {
				t.Errorf("checks %v, want the suite's %v of that day", names, want)
			}
			for i, g := range tr.GPUs {
				if g.Index != i || len(g.UUID) != len("GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx") {
					t.Errorf("gpu line %d: index %d uuid %q", i, g.Index, g.UUID)
				}
			}
			if !strings.HasSuffix(f, tr.Date.Format("2006-01-02")+".txt") {
				t.Errorf("the file name does not carry the run's date %s", tr.Date.Format("2006-01-02"))
			}
			byGPUs[len(tr.GPUs)] = f
		})
	}
	for _, n := range []int{1, 2} {
		if byGPUs[n] == "" {
			t.Errorf("no transcript of a %d-GPU machine under testdata/real (run make e2e-gpu there and commit it)", n)
		}
	}
}

func sample() *Transcript {
	t := &Transcript{Date: time.Date(2026, 11, 30, 16, 0, 0, 0, time.UTC), Machine: "nvidia-h200", Driver: "580.159.04", CUDA: "13.0",
		Engine: "payload dockerd 20.10.24", Devenv: "devenv dev",
		GPUs: []GPU{{Index: 0, UUID: "GPU-0e1b2c3d-0000-1111-2222-333344445555", Name: "NVIDIA H200", MemoryMiB: 143771}}}
	t.Add(Check{Name: "a", Result: Pass, Seconds: 1.25, Evidence: []string{"first", "multi\nline"}})
	t.Add(Check{Name: "b", Result: Fail, Evidence: []string{"FAILED: x"}})
	t.Add(Check{Name: "c", Result: Skip, Evidence: []string{"skipped: one GPU"}})
	return t
}

func TestWriteThenParse(t *testing.T) {
	var b bytes.Buffer
	if err := sample().Write(&b); err != nil {
		t.Fatal(err)
	}
	got, err := Parse(&b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if got.Passed != 1 || got.Failed != 1 || got.Skipped != 1 || got.Summary() != "1 passed, 1 failed, 1 skipped" {
		t.Errorf("counts %d/%d/%d", got.Passed, got.Failed, got.Skipped)
	}
	if c := got.Check("a"); c == nil || !slices.Equal(c.Evidence, []string{"first", "multi", "line"}) || c.Seconds != 1.2 && c.Seconds != 1.3 {
		t.Errorf("check a read back as %+v", c)
	}
	if got.GPUs[0].Name != "NVIDIA H200" || got.GPUs[0].MemoryMiB != 143771 || got.Driver != "580.159.04" {
		t.Errorf("header read back as %+v", got)
	}
}

func TestParseRefusesBrokenTranscripts(t *testing.T) {
	var b bytes.Buffer
	if err := sample().Write(&b); err != nil {
		t.Fatal(err)
	}
	good := b.String()
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "empty transcript"},
		{"wrong header", strings.Replace(good, header, "something else", 1), "first line"},
		{"no summary", strings.Replace(good, "summary: 1 passed, 1 failed, 1 skipped\n", "", 1), "no summary"},
		{"summary disagrees", strings.Replace(good, "summary: 1 passed", "summary: 2 passed", 1), "summary says"},
		{"no driver", strings.Replace(good, "driver: 580.159.04\n", "", 1), "no driver"},
		{"no gpu", strings.Replace(good, "gpu: 0 GPU-0e1b2c3d-0000-1111-2222-333344445555 143771 MiB NVIDIA H200\n", "", 1), "no GPU"},
		{"bad result", strings.Replace(good, "check: PASS a", "check: OK a", 1), "not PASS"},
		{"check without evidence", strings.Replace(good, "  | FAILED: x\n", "", 1), "no evidence"},
		{"unknown key", strings.Replace(good, "cuda: 13.0", "cudnn: 9", 1), "unknown key"},
		{"text after summary", good + "check: PASS z 0.1s\n", "after the summary"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
