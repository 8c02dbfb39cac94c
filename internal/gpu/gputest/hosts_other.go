//go:build !(linux && cgo)

package gputest

import (
	"embed"
	"encoding/json"
	"fmt"

	"github.com/devenv-dev/devenv/internal/gpu"
)

// Shapes names every machine shape, for table-driven tests.
var Shapes = []string{"laptop", "workstation", "h100x8", "a100mig", "nogpu"}

//go:embed testdata/*.host.json
var recorded embed.FS

// HostOf decodes the adapter's recorded output for a shape: without cgo
// the NVML mocks cannot be built.
func HostOf(shape string) (*gpu.Host, error) {
	b, err := recorded.ReadFile("testdata/" + shape + ".host.json")
	if err != nil {
		return nil, fmt.Errorf("gputest: no machine shape %q; shapes are %v", shape, Shapes)
	}
	var h gpu.Host
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("gputest: testdata/%s.host.json: %w", shape, err)
	}
	return &h, nil
}
