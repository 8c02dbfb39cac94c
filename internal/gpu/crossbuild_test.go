package gpu_test

import (
	"os"
	"os/exec"
	"testing"
)

// TestCrossBuild checks that the package and gputest build without cgo and
// on the platforms where NVML is not read.
func TestCrossBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("cross builds take a while; skipped with -short")
	}
	targets := []struct{ goos, goarch, cgo string }{
		{"darwin", "arm64", "0"}, {"windows", "amd64", "0"}, {"linux", "arm64", "0"}, {"linux", "amd64", "0"},
	}
	for _, tt := range targets {
		t.Run(tt.goos+"-"+tt.goarch, func(t *testing.T) {
			cmd := exec.Command("go", "vet", ".", "./gputest")
			cmd.Env = append(os.Environ(), "GOOS="+tt.goos, "GOARCH="+tt.goarch, "CGO_ENABLED="+tt.cgo)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("GOOS=%s GOARCH=%s CGO_ENABLED=%s go vet: %v\n%s", tt.goos, tt.goarch, tt.cgo, err, out)
			}
		})
	}
}
