//go:build linux && cgo

package gputest

import (
	"context"
	"fmt"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/devenv-dev/devenv/internal/gpu"
)

// Shapes names every machine shape, for table-driven tests.
var Shapes = []string{"laptop", "workstation", "h100x8", "a100mig", "nogpu"}

// NVML returns the mock NVML library of a shape named in Shapes.
func NVML(shape string) (nvml.Interface, error) {
	switch shape {
	case "laptop":
		return LaptopNVML(), nil
	case "workstation":
		return WorkstationNVML(), nil
	case "h100x8":
		return H100x8NVML(), nil
	case "a100mig":
		return A100MIGNVML(), nil
	case "nogpu":
		return NoGPUNVML(), nil
	}
	return nil, fmt.Errorf("gputest: no machine shape %q; shapes are %v", shape, Shapes)
}

// HostOf runs gpu's NVML adapter over the shape's mock library.
func HostOf(shape string) (*gpu.Host, error) {
	lib, err := NVML(shape)
	if err != nil {
		return nil, err
	}
	inv := gpu.NewFromNVML(lib)
	defer func() { _ = inv.Close() }()
	return inv.Host(context.Background())
}

// SampleOf runs gpu's NVML adapter's Sample over the shape's mock library.
func SampleOf(shape string) ([]gpu.Sample, error) {
	lib, err := NVML(shape)
	if err != nil {
		return nil, err
	}
	inv := gpu.NewFromNVML(lib)
	defer func() { _ = inv.Close() }()
	return inv.Sample(context.Background())
}
