package engine

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
)

func TestGPUDeviceRequests(t *testing.T) {
	tests := []struct {
		name    string
		gpu     *GPURequest
		want    []DeviceRequest
		wantErr string
	}{
		{name: "none", gpu: nil, want: nil},
		{name: "all", gpu: &GPURequest{All: true},
			want: []DeviceRequest{{Count: -1, Capabilities: [][]string{{"gpu"}}}}},
		{name: "count", gpu: &GPURequest{Count: 2},
			want: []DeviceRequest{{Count: 2, Capabilities: [][]string{{"gpu"}}}}},
		{name: "device ids", gpu: &GPURequest{DeviceIDs: []string{"0", "GPU-fef8089b-4820-abfc-e83e-94318197576e"}},
			want: []DeviceRequest{{Count: 0, DeviceIDs: []string{"0", "GPU-fef8089b-4820-abfc-e83e-94318197576e"}, Capabilities: [][]string{{"gpu"}}}}},
		{name: "extra capabilities, gpu kept first and once", gpu: &GPURequest{All: true, Capabilities: []string{"compute", "gpu", "utility", "compute"}},
			want: []DeviceRequest{{Count: -1, Capabilities: [][]string{{"gpu", "compute", "utility"}}}}},
		{name: "cdi driver", gpu: &GPURequest{Driver: "cdi", DeviceIDs: []string{"nvidia.com/gpu=all"}},
			want: []DeviceRequest{{Driver: "cdi", DeviceIDs: []string{"nvidia.com/gpu=all"}, Capabilities: [][]string{{"gpu"}}}}},
		{name: "count and ids", gpu: &GPURequest{Count: 1, DeviceIDs: []string{"0"}}, wantErr: "more than one of"},
		{name: "all and count", gpu: &GPURequest{All: true, Count: 1}, wantErr: "more than one of"},
		{name: "nothing asked", gpu: &GPURequest{}, wantErr: "asks for no GPU"},
		{name: "negative count", gpu: &GPURequest{Count: -1}, wantErr: "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := GPUDeviceRequests(tt.gpu)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
			for _, r := range got {
				if r.Count != 0 && len(r.DeviceIDs) > 0 {
					t.Errorf("request sets both Count %d and DeviceIDs %v", r.Count, r.DeviceIDs)
				}
			}
		})
	}
}

// fullSpec uses every field of ContainerSpec.
func fullSpec() ContainerSpec {
	return ContainerSpec{
		Name: "demo-spark", Image: "devenv/demo-spark:0123456789ab",
		Labels: map[string]string{"dev.devenv.project": "demo", "dev.devenv.service": "spark"},
		Env:    []string{"SPARK_HOME=/opt/spark"}, Cmd: []string{"serve"}, Entrypoint: []string{"/app"},
		WorkingDir: "/work", User: "1000:1000", Hostname: "spark",
		Ports: []PortBinding{
			{HostIP: "127.0.0.1", HostPort: 4040, ContainerPort: 4040},
			{HostIP: "127.0.0.1", ContainerPort: 8888, Protocol: "tcp"},
		},
		Mounts: []Mount{
			{Type: MountBind, Source: "/home/me/repo", Target: "/work"},
			{Type: MountVolume, Source: "demo-ivy", Target: "/root/.ivy2", ReadOnly: true},
		},
		Network: "demo", Aliases: []string{"spark"},
		GPU: &GPURequest{All: true, Capabilities: []string{"compute", "utility"}},
		Healthcheck: &Healthcheck{Test: []string{"CMD", "/app", "health"}, Interval: time.Second,
			Timeout: 2 * time.Second, StartPeriod: 3 * time.Second, Retries: 4},
		MemoryBytes: 8 << 30, ShmSizeBytes: 1 << 30, Init: true, Tty: true, OpenStdin: true,
	}
}

func TestToCreateRequest(t *testing.T) {
	req, err := toCreateRequest(fullSpec())
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "create-full.golden.json", map[string]any{
		"Config": req.config, "HostConfig": req.host, "NetworkingConfig": req.network,
	})
	min, err := toCreateRequest(ContainerSpec{Name: "demo-x", Image: "scratch-app"})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "create-minimal.golden.json", map[string]any{
		"Config": min.config, "HostConfig": min.host, "NetworkingConfig": min.network,
	})
}

func TestValidateReportsAllProblems(t *testing.T) {
	spec := ContainerSpec{
		Name:   "bad",
		Ports:  []PortBinding{{ContainerPort: 0}, {ContainerPort: 80, Protocol: "icmp"}},
		Mounts: []Mount{{Type: "tmpfs", Target: "/tmp"}, {Type: MountBind, Target: "/x"}},
		GPU:    &GPURequest{Count: 1, DeviceIDs: []string{"0"}},
	}
	err := spec.Validate()
	if err == nil {
		t.Fatal("Validate accepted a spec with six problems")
	}
	for _, want := range []string{
		"numbers must be within 1-65535", `protocol "icmp"`, `type "tmpfs"`,
		"both source and target", "more than one of", "no image given",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
	if err := fullSpec().Validate(); err != nil {
		t.Errorf("Validate rejected a good spec: %v", err)
	}
}

// TestComposeHostExtras: compose's restart, ulimits, extra_hosts, expose,
// runtime and ipc reach the create request as `docker compose up` sends them.
func TestComposeHostExtras(t *testing.T) {
	spec := ContainerSpec{Name: "x", Image: "busybox:1", Restart: "on-failure:3",
		Ulimits:    []Ulimit{{Name: "nofile", Soft: 65536, Hard: 65536}},
		ExtraHosts: []string{"host.docker.internal:host-gateway"},
		Expose:     []string{"8000", "9000/udp"}, Runtime: "nvidia", IpcMode: "host"}
	req, err := toCreateRequest(spec)
	if err != nil {
		t.Fatal(err)
	}
	h := req.host
	if h.RestartPolicy.Name != "on-failure" || h.RestartPolicy.MaximumRetryCount != 3 {
		t.Errorf("restart = %+v", h.RestartPolicy)
	}
	if len(h.Ulimits) != 1 || *h.Ulimits[0] != (container.Ulimit{Name: "nofile", Soft: 65536, Hard: 65536}) {
		t.Errorf("ulimits = %v", h.Ulimits)
	}
	if !reflect.DeepEqual(h.ExtraHosts, []string{"host.docker.internal:host-gateway"}) || h.Runtime != "nvidia" || h.IpcMode != "host" {
		t.Errorf("extra hosts %v, runtime %q, ipc %q", h.ExtraHosts, h.Runtime, h.IpcMode)
	}
	if _, ok := req.config.ExposedPorts["8000/tcp"]; !ok {
		t.Errorf("exposed = %v, want 8000/tcp", req.config.ExposedPorts)
	}
	if _, ok := req.config.ExposedPorts["9000/udp"]; !ok {
		t.Errorf("exposed = %v, want 9000/udp", req.config.ExposedPorts)
	}
	for _, bad := range []string{"sometimes", "always:2", "on-failure:x"} {
		if _, err := toCreateRequest(ContainerSpec{Name: "x", Image: "busybox:1", Restart: bad}); err == nil {
			t.Errorf("restart %q accepted", bad)
		}
	}
}
