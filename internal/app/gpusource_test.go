package app

import (
	"context"
	"errors"
	"testing"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/gpu"
)

// stubInventory is an inventory that names where it came from.
type stubInventory struct{ name string }

func (s stubInventory) Host(context.Context) (*gpu.Host, error) {
	return &gpu.Host{DriverVersion: s.name, GPUs: []gpu.GPU{{UUID: "GPU-" + s.name}}}, nil
}
func (s stubInventory) Sample(context.Context) ([]gpu.Sample, error) { return nil, nil }
func (s stubInventory) Close() error                                 { return nil }

func TestChooseGPUs(t *testing.T) {
	remote := &endpoint.Endpoint{Context: "gpu", Host: "ssh://me@gpubox", Kind: endpoint.SSH, SSH: &endpoint.SSHTarget{User: "me", Host: "gpubox"}}
	nvml := func() (gpu.Inventory, error) { return stubInventory{"laptop"}, nil }
	noNVML := func() (gpu.Inventory, error) { return nil, gpu.ErrNoNVML }
	viaEngine := func(context.Context, engine.Engine) (gpu.Inventory, error) { return stubInventory{"engine"}, nil }
	tests := []struct {
		name     string
		remote   bool
		runtime  bool
		nvml     func() (gpu.Inventory, error)
		force    string
		want     string
		wantPath string
	}{
		{"local engine, NVML here", false, true, nvml, "", "laptop", GPUPathNVML},
		{"remote engine: never the laptop's GPUs", true, false, nvml, "", "engine", GPUPathEngine},
		{"local engine, no NVML (no cgo), engine with a GPU runtime", false, true, noNVML, "", "engine", GPUPathEngine},
		{"local engine, no NVML, no GPU runtime: no probe", false, false, noNVML, "", "", GPUPathNVML},
		{"forced to NVML", true, true, nvml, "nvml", "laptop", GPUPathNVML},
		{"forced to the engine", false, true, nvml, "engine", "engine", GPUPathEngine},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DEVENV_GPU_FACTS", tt.force)
			f := enginetest.New()
			f.InfoValue.NvidiaRuntime = tt.runtime
			if tt.remote {
				f.EndpointValue = remote
			}
			h, path, err := hostGPUs(t.Context(), Options{GPUs: tt.nvml, EngineGPUs: viaEngine}, f, nil)
			if path != tt.wantPath {
				t.Errorf("path %q, want %q", path, tt.wantPath)
			}
			if tt.want == "" {
				if !errors.Is(err, gpu.ErrNoNVML) {
					t.Fatalf("error %v, want NVML's", err)
				}
				return
			}
			if err != nil || h.DriverVersion != tt.want {
				t.Fatalf("read %v (%v), want %s's", h, err, tt.want)
			}
		})
	}
}
