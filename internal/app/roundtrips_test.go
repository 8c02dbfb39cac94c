package app

import (
	"errors"
	"fmt"
	"testing"

	"github.com/devenv-dev/devenv/internal/gpu"
)

// TestNoOpUpRoundTrips: a second up of running services asks the engine
// only what deciding "unchanged" needs. A project of plain images (whose
// plan is the same on every machine) reads no engine facts and no NVML and
// inspects no container; a Spark project reads the engine's facts once.
func TestNoOpUpRoundTrips(t *testing.T) {
	const plain = "name: demo\nservices:\n  a:\n    profile: image\n    image: postgres:16\n    ports: [\"5432\"]\n  b:\n    profile: image\n    image: redis:7\n  c:\n    profile: image\n    image: postgres:16\n"
	tests := []struct {
		name      string
		yaml      string
		info, gpu int
	}{
		{"plain images", plain, 0, 0},
		{"spark", optionalSpark, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.yaml, map[string]string{})
			nvml := 0
			w.opts.GPUs = func() (gpu.Inventory, error) { nvml++; return nil, errors.New("no NVML here") }
			w.lock(t)
			pl, err := w.open(t).Plan(t.Context(), PlanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range pl.Services {
				w.eng.AddImage(s.Image, nil)
			}
			if _, err := w.open(t).Up(t.Context(), UpOptions{}); err != nil {
				t.Fatal(err)
			}
			before, nvmlBefore := len(w.eng.Calls()), nvml
			res, err := w.open(t).Up(t.Context(), UpOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range res.Changes {
				if c.Action != "unchanged" {
					t.Fatalf("second up changed %s: %s", c.Service, c.Action)
				}
			}
			count := map[string]int{}
			for _, c := range w.eng.Calls()[before:] {
				count[c.Method]++
			}
			if count["Info"] != tt.info || nvml-nvmlBefore != tt.gpu {
				t.Errorf("no-op up: %d Info, %d NVML reads; want %d and %d (calls %v)", count["Info"], nvml-nvmlBefore, tt.info, tt.gpu, count)
			}
			images := map[string]bool{}
			for _, s := range pl.Services {
				images[s.Image] = true
			}
			if count["ImageExists"] != len(images) {
				t.Errorf("no-op up asked about %d images; the plan has %d distinct ones (calls %v)", count["ImageExists"], len(images), count)
			}
			if count["Inspect"] != 0 {
				t.Errorf("no-op up inspected %d containers; the listing says all it needs (calls %v)", count["Inspect"], count)
			}
			if count["List"] > 2 {
				t.Errorf("no-op up listed %d times (calls %v)", count["List"], fmt.Sprint(count))
			}
		})
	}
}
