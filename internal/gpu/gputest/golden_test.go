//go:build linux && cgo

package gputest

import (
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
)

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
	goldenfile.JSON(t, filepath.Join("testdata", name), v)
}

func TestUnknownShape(t *testing.T) {
	if _, err := HostOf("mainframe"); err == nil {
		t.Fatal("HostOf(mainframe) succeeded; want an error naming the shapes")
	}
}
