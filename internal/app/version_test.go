package app

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/gpu"
)

type fakeInventory struct {
	gpu.Inventory
	host *gpu.Host
	err  error
}

func (f fakeInventory) Host(context.Context) (*gpu.Host, error) { return f.host, f.err }
func (f fakeInventory) Close() error                            { return nil }

func TestNVMLFacts(t *testing.T) {
	tests := []struct {
		name string
		open func() (gpu.Inventory, error)
		want NVMLFacts
	}{
		{"driver found", func() (gpu.Inventory, error) {
			return fakeInventory{host: &gpu.Host{DriverVersion: "580.95.05", CUDADriverVersion: "13.0"}}, nil
		}, NVMLFacts{Found: true, Driver: "580.95.05", CUDA: "13.0"}},
		{"no driver", func() (gpu.Inventory, error) {
			return nil, fmt.Errorf("%w: libnvidia-ml.so.1 not found", gpu.ErrNoNVML)
		}, NVMLFacts{Reason: "libnvidia-ml.so.1 not found"}},
		{"loaded but unreadable", func() (gpu.Inventory, error) {
			return fakeInventory{err: errors.New("GPU is lost")}, nil
		}, NVMLFacts{Found: true, Reason: "NVML is loaded but reading the driver failed: GPU is lost"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nvmlFacts(t.Context(), tt.open); got != tt.want {
				t.Errorf("nvmlFacts = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestEngineFactsFollowsHost(t *testing.T) {
	got := engineFacts(endpoint.Options{Host: "tcp://127.0.0.1:2375", ConfigDir: t.TempDir()})
	if got.Host != "tcp://127.0.0.1:2375" || got.Source != "--host" || got.Error != "" {
		t.Errorf("engineFacts = %+v", got)
	}
	if got := engineFacts(endpoint.Options{Host: "tcp://x:1", Context: "c"}); got.Error == "" {
		t.Errorf("both --context and --host: want an error, got %+v", got)
	}
}
