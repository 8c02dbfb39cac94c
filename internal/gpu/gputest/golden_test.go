//go:build linux && cgo

package gputest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json from the adapter's output")

// TestGolden runs gpu's NVML adapter over every mock shape and compares its
// Host and Sample JSON with testdata. Regenerate with
// `go test ./internal/gpu/gputest -run TestGolden -update`.
func TestGolden(t *testing.T) {
	for _, shape := range Shapes {
		t.Run(shape, func(t *testing.T) {
			h, err := HostOf(shape)
			if err != nil {
				t.Fatalf("HostOf(%q): %v", shape, err)
			}
			checkGolden(t, shape+".host.json", h)
			s, err := SampleOf(shape)
			if err != nil {
				t.Fatalf("SampleOf(%q): %v", shape, err)
			}
			checkGolden(t, shape+".sample.json", s)
		})
	}
}

func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./internal/gpu/gputest -run TestGolden -update` to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the adapter's output; got:\n%s\n(if the change is intended, rerun with -update)", path, got)
	}
}

func TestUnknownShape(t *testing.T) {
	if _, err := HostOf("mainframe"); err == nil {
		t.Fatal("HostOf(mainframe) succeeded; want an error naming the shapes")
	}
}
