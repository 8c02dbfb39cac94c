package loader

import (
	"reflect"
	"testing"

	"github.com/devenv-dev/devenv/compose"
)

// TestGPUIdioms: every way NVIDIA's and others' compose files ask for GPUs
// yields the placement want (envs/plan's TestComposeGPURequests holds the
// engine request made of it).
func TestGPUIdioms(t *testing.T) {
	tests := []struct {
		name    string
		service string // the service's body, indented by four spaces
		want    *compose.GPUWant
		runtime string
	}{
		{name: "gpus all", service: "    gpus: all\n",
			want: &compose.GPUWant{All: true, Capabilities: []string{"gpu"}}},
		{name: "runtime nvidia, every GPU", service: "    runtime: nvidia\n",
			want: &compose.GPUWant{All: true, Runtime: true, Capabilities: []string{"gpu"}}, runtime: "nvidia"},
		{name: "runtime nvidia with NVIDIA_VISIBLE_DEVICES", service: "    runtime: nvidia\n    environment: {NVIDIA_VISIBLE_DEVICES: \"0,1\"}\n",
			want: &compose.GPUWant{IDs: []string{"0", "1"}, Runtime: true, Capabilities: []string{"gpu"}}, runtime: "nvidia"},
		{name: "runtime nvidia with no devices", service: "    runtime: nvidia\n    environment: {NVIDIA_VISIBLE_DEVICES: none}\n",
			runtime: "nvidia"},
		{name: "capabilities without gpu", service: "    deploy: {resources: {reservations: {devices: [{driver: nvidia, count: 1, capabilities: [compute, utility]}]}}}\n",
			want: &compose.GPUWant{Count: 1, Driver: "nvidia", Capabilities: []string{"gpu", "compute", "utility"}}},
		{name: "comma-joined device_ids", service: "    deploy: {resources: {reservations: {devices: [{driver: nvidia, device_ids: [\"1,2\"], capabilities: [gpu]}]}}}\n",
			want: &compose.GPUWant{IDs: []string{"1", "2"}, DeviceIDs: []string{"1", "2"}, Driver: "nvidia", Capabilities: []string{"gpu"}}},
		{name: "CDI names with driver cdi", service: "    deploy: {resources: {reservations: {devices: [{driver: cdi, device_ids: [nvidia.com/gpu=0, nvidia.com/gpu=GPU-1a2b], capabilities: [gpu]}]}}}\n",
			want: &compose.GPUWant{IDs: []string{"0", "GPU-1a2b"}, DeviceIDs: []string{"nvidia.com/gpu=0", "nvidia.com/gpu=GPU-1a2b"}, Driver: "cdi", Capabilities: []string{"gpu"}}},
		{name: "CDI all", service: "    deploy: {resources: {reservations: {devices: [{driver: cdi, device_ids: [nvidia.com/gpu=all], capabilities: [gpu]}]}}}\n",
			want: &compose.GPUWant{All: true, DeviceIDs: []string{"nvidia.com/gpu=all"}, Driver: "cdi", Capabilities: []string{"gpu"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, f := writeCompose(t, "services:\n  app:\n    image: busybox:1\n"+tt.service)
			svcs, warns, err := NewFiles([]string{f}, dir, "demo").services(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(svcs) != 1 {
				t.Fatalf("services = %v", svcs)
			}
			s := svcs[0]
			if !reflect.DeepEqual(s.GPU, tt.want) {
				t.Errorf("want = %+v, expected %+v (warnings %v)", s.GPU, tt.want, warns)
			}
			if s.Config.Service.Runtime != tt.runtime {
				t.Errorf("runtime = %q, want %q", s.Config.Service.Runtime, tt.runtime)
			}
		})
	}
}
