package gpu_test

import (
	"testing"

	"github.com/devenv-dev/devenv/internal/gpu"
)

func TestContainerOfPID(t *testing.T) {
	const (
		a = "3f4e1b2c9d8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e"
		b = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
	)
	tests := []struct {
		name string
		pid  int
		want string
	}{
		{"cgroup v1", 101, a},
		{"cgroup v2 systemd driver", 102, a},
		{"cgroup v2 cgroupfs driver", 103, a},
		{"docker in docker", 104, a},
		{"rootless", 105, a},
		{"host process", 106, ""},
		{"malformed", 107, ""},
		{"missing file", 108, ""},
		{"kubernetes systemd", 109, b},
		{"bad pid", -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := gpu.ContainerOfPID("testdata/proc", tt.pid)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("ContainerOfPID(%d) = %q, %v; want %q, %v", tt.pid, got, ok, tt.want, tt.want != "")
			}
		})
	}
}
