package plan

import (
	"path/filepath"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/internal/labels"
)

// TestComposeGPURequests: a compose service's GPU request, as the
// project asks the engine for it, is what `docker compose up` would send
// for the file's idiom (device ids and driver as written, capability gpu
// first); runtime: nvidia asks for none (the runtime serves the GPUs).
// The machine has no NVML facts, so nothing is placed.
func TestComposeGPURequests(t *testing.T) {
	gpuCaps := []string{"gpu"}
	for _, tt := range []struct {
		name, service string
		want          *types.DeviceRequest
		label         string
	}{
		// gpus: is kept as written: the SDK adds capability gpu
		{"gpus all", "    gpus: all\n", &types.DeviceRequest{Count: -1}, "all"},
		{"runtime nvidia", "    runtime: nvidia\n", nil, "all GPUs"},
		{"capabilities without gpu", "    deploy: {resources: {reservations: {devices: [{driver: nvidia, count: 1, capabilities: [compute, utility]}]}}}\n",
			&types.DeviceRequest{Count: 1, Driver: "nvidia", Capabilities: []string{"gpu", "compute", "utility"}}, "count=1"},
		{"comma-joined device_ids", "    deploy: {resources: {reservations: {devices: [{driver: nvidia, device_ids: [\"1,2\"], capabilities: [gpu]}]}}}\n",
			&types.DeviceRequest{IDs: []string{"1", "2"}, Driver: "nvidia", Capabilities: gpuCaps}, "1,2"},
		{"CDI names with driver cdi", "    deploy: {resources: {reservations: {devices: [{driver: cdi, device_ids: [nvidia.com/gpu=0], capabilities: [gpu]}]}}}\n",
			&types.DeviceRequest{IDs: []string{"nvidia.com/gpu=0"}, Driver: "cdi", Capabilities: gpuCaps}, "nvidia.com/gpu=0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "compose.yaml"), "services:\n  app:\n    image: busybox:1\n"+tt.service)
			s := planSmall(t, composeProject(t, dir), &lock.File{}).Service("app")
			if got := compose.GPURequest(s.Container); (got == nil) != (tt.want == nil) || (got != nil && !sameRequest(*got, *tt.want)) {
				t.Errorf("request %+v, want %+v", got, tt.want)
			}
			if got := s.Container.Labels[labels.GPUs]; got != tt.label || !s.WantsGPU {
				t.Errorf("GPUs label %q (wants GPUs %v), want %q", got, s.WantsGPU, tt.label)
			}
		})
	}
}
