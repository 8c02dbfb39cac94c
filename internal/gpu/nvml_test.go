//go:build linux && cgo

package gpu_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"

	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/gpu/gputest"
)

func TestInitFailureWrapsErrNoNVML(t *testing.T) {
	tests := []struct {
		ret  nvml.Return
		want string
	}{
		{nvml.ERROR_LIBRARY_NOT_FOUND, "install the NVIDIA driver"},
		{nvml.ERROR_DRIVER_NOT_LOADED, "kernel driver is not loaded"},
		{nvml.ERROR_LIB_RM_VERSION_MISMATCH, "Reboot"},
		{nvml.ERROR_NO_PERMISSION, "/dev/nvidia"},
		{nvml.ERROR_UNKNOWN, "nvidia-smi"},
	}
	for _, tt := range tests {
		t.Run(tt.ret.Error(), func(t *testing.T) {
			lib := &mock.Interface{InitFunc: func() nvml.Return { return tt.ret }}
			inv := gpu.NewFromNVML(lib)
			_, err := inv.Host(t.Context())
			if !errors.Is(err, gpu.ErrNoNVML) {
				t.Fatalf("Host() error = %v, want one wrapping ErrNoNVML", err)
			}
			if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tt.want)) {
				t.Errorf("Host() error = %q, want it to mention %q", err, tt.want)
			}
			if err := inv.Close(); err != nil {
				t.Errorf("Close() after failed init = %v, want nil", err)
			}
		})
	}
}

// TestUnexpectedFailuresFailTheRead checks that only "not supported" kinds
// of answers are left empty: a lost GPU is an error naming GPU and field.
func TestUnexpectedFailuresFailTheRead(t *testing.T) {
	s := gputest.WorkstationNVML()
	for _, d := range s.Devices {
		d.(*server.Device).GetTemperatureFunc = func(nvml.TemperatureSensors) (uint32, nvml.Return) {
			return 0, nvml.ERROR_GPU_IS_LOST
		}
	}
	_, err := gpu.NewFromNVML(s).Host(t.Context())
	if err == nil {
		t.Fatal("Host() succeeded with lost GPUs")
	}
	for _, want := range []string{"GPU 0: reading temperature", "GPU 1: reading temperature", "ERROR_GPU_IS_LOST"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Host() error = %q, want it to contain %q", err, want)
		}
	}
}

func TestNotSupportedLeavesFieldsEmpty(t *testing.T) {
	s := gputest.LaptopNVML()
	d := s.Devices[0].(*server.Device)
	d.GetCudaComputeCapabilityFunc = func() (int, int, nvml.Return) { return 0, 0, nvml.ERROR_NOT_SUPPORTED }
	d.GetUtilizationRatesFunc = func() (nvml.Utilization, nvml.Return) { return nvml.Utilization{}, nvml.ERROR_NOT_SUPPORTED }
	h, err := gpu.NewFromNVML(s).Host(t.Context())
	if err != nil {
		t.Fatalf("Host() = %v", err)
	}
	g := h.GPUs[0]
	if g.ComputeCapability != "" || g.Architecture != "" || g.PowerLimitW != 0 {
		t.Errorf("unsupported fields filled: cc=%q arch=%q limit=%v", g.ComputeCapability, g.Architecture, g.PowerLimitW)
	}
	if g.UUID == "" || g.MemoryTotal == 0 {
		t.Errorf("supported fields lost: %+v", g)
	}
}

func TestThrottleReasonsFallBackToDeprecatedCall(t *testing.T) {
	s := gputest.LaptopNVML()
	d := s.Devices[0].(*server.Device)
	d.GetCurrentClocksEventReasonsFunc = func() (uint64, nvml.Return) { return 0, nvml.ERROR_FUNCTION_NOT_FOUND }
	d.GetCurrentClocksThrottleReasonsFunc = func() (uint64, nvml.Return) { return 0x40, nvml.SUCCESS }
	samples, err := gpu.NewFromNVML(s).Sample(t.Context())
	if err != nil {
		t.Fatalf("Sample() = %v", err)
	}
	if got := samples[0].ThrottleReasons; len(got) != 1 || got[0] != "hw_thermal_slowdown" {
		t.Errorf("throttle reasons = %v, want [hw_thermal_slowdown]", got)
	}
}

func TestProcessInBothListsIsListedOnce(t *testing.T) {
	s := gputest.LaptopNVML()
	d := s.Devices[0].(*server.Device)
	d.GetComputeRunningProcessesFunc = func() ([]nvml.ProcessInfo, nvml.Return) {
		return []nvml.ProcessInfo{{Pid: 2154, UsedGpuMemory: 500}}, nvml.SUCCESS
	}
	samples, err := gpu.NewFromNVML(s).Sample(t.Context())
	if err != nil {
		t.Fatalf("Sample() = %v", err)
	}
	procs := samples[0].Processes
	if len(procs) != 2 || procs[0].PID != 2154 || procs[0].Type != "compute+graphics" {
		t.Errorf("processes = %+v, want pid 2154 once as compute+graphics, then 3310", procs)
	}
}

func TestCloseAndContext(t *testing.T) {
	inv := gpu.NewFromNVML(gputest.LaptopNVML())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := inv.Host(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Host(cancelled) = %v, want context.Canceled", err)
	}
	if err := inv.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	if err := inv.Close(); err != nil {
		t.Errorf("second Close() = %v, want nil", err)
	}
	if _, err := inv.Sample(t.Context()); err == nil {
		t.Error("Sample() after Close succeeded")
	}
}
