package view

import (
	"bytes"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
)

func TestSampleWithANoteSaysWhy(t *testing.T) {
	var b bytes.Buffer
	Sample(&b, app.TopSample{GPUs: []app.TopGPU{}, Note: "NVML is not available"})
	if want := "No NVIDIA GPU to watch: NVML is not available\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
