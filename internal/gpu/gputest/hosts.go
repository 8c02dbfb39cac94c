package gputest

import "github.com/devenv-dev/devenv/internal/gpu"

// Laptop is one RTX 4070 Laptop GPU, 8 GB, CC 8.9.
func Laptop() *gpu.Host { return mustHost("laptop") }

// Workstation is two RTX 6000 Ada GPUs, 48 GB each, CC 8.9, on PCIe.
func Workstation() *gpu.Host { return mustHost("workstation") }

// H100x8 is eight H100 80GB GPUs, CC 9.0, linked by NVLink through NVSwitches.
func H100x8() *gpu.Host { return mustHost("h100x8") }

// A100MIG is one A100 80GB in MIG mode with three MIG devices.
func A100MIG() *gpu.Host { return mustHost("a100mig") }

// NoGPU is a host with the NVIDIA driver and no GPU.
func NoGPU() *gpu.Host { return mustHost("nogpu") }

// mustHost returns a fresh Host of a known shape; the shapes are fixed test
// data, so failing to read one is a bug in this package.
func mustHost(shape string) *gpu.Host {
	h, err := HostOf(shape)
	if err != nil {
		panic("gputest: reading shape " + shape + ": " + err.Error())
	}
	return h
}
