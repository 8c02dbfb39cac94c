package gpu

import (
	"context"
	"errors"
)

// ErrNoNVML is wrapped by Open's error when the NVIDIA Management Library
// cannot be used on this machine (no driver, no libnvidia-ml.so, no cgo, or
// an operating system where the GPUs belong to another host).
var ErrNoNVML = errors.New("NVIDIA Management Library (NVML) not available")

// Inventory reads the GPUs of one machine.
type Inventory interface {
	// Host reads the static facts and the current state of every GPU.
	Host(ctx context.Context) (*Host, error)
	// Sample reads the fast-changing numbers `devenv top` shows.
	Sample(ctx context.Context) ([]Sample, error)
	// Close releases the library.
	Close() error
}

// Host is what `devenv gpus --json` prints.
type Host struct {
	DriverVersion     string         `json:"driver_version,omitempty"`
	CUDADriverVersion string         `json:"cuda_driver_version,omitempty"`
	NVMLVersion       string         `json:"nvml_version,omitempty"`
	GPUs              []GPU          `json:"gpus"`
	Topology          []TopologyLink `json:"topology,omitempty"`
}

// GPU is one physical GPU. Fields NVML does not support on this device are
// left empty.
type GPU struct {
	Index             int         `json:"index"`
	UUID              string      `json:"uuid"`
	Name              string      `json:"name"`
	Brand             string      `json:"brand,omitempty"` // NVML's product brand: "Tesla", "GeForce", "NVIDIA", ...
	Architecture      string      `json:"architecture,omitempty"`
	ComputeCapability string      `json:"compute_capability,omitempty"`
	MemoryTotal       uint64      `json:"memory_total"`
	MemoryUsed        uint64      `json:"memory_used"`
	MemoryFree        uint64      `json:"memory_free"`
	MIGMode           bool        `json:"mig_mode"`
	MIGDevices        []MIGDevice `json:"mig_devices,omitempty"`
	PCIBusID          string      `json:"pci_bus_id,omitempty"`
	PCIeGeneration    int         `json:"pcie_generation,omitempty"`
	PCIeWidth         int         `json:"pcie_width,omitempty"`
	TemperatureC      int         `json:"temperature_c,omitempty"`
	PowerDrawW        float64     `json:"power_draw_w,omitempty"`
	PowerLimitW       float64     `json:"power_limit_w,omitempty"`
	Clocks            Clocks      `json:"clocks"`
	Utilization       Utilization `json:"utilization"`
	ThrottleReasons   []string    `json:"throttle_reasons,omitempty"`
	PersistenceMode   bool        `json:"persistence_mode"`
}

// MIGDevice is one Multi-Instance GPU slice of a GPU in MIG mode.
type MIGDevice struct {
	UUID        string `json:"uuid"`
	Name        string `json:"name,omitempty"`
	MemoryTotal uint64 `json:"memory_total"`
}

// Clocks are current clock speeds in MHz.
type Clocks struct {
	SM       int `json:"sm,omitempty"`
	Memory   int `json:"memory,omitempty"`
	Graphics int `json:"graphics,omitempty"`
}

// Utilization is the percentage of time the GPU and its memory were busy
// over NVML's last sample period.
type Utilization struct {
	GPU    int `json:"gpu"`
	Memory int `json:"memory"`
}

// TopologyLink says how two GPUs reach each other: over NVLink (Link "NV<n>",
// NVLinks n) or over a PCIe path named as nvidia-smi topo names it (PIX,
// PXB, PHB, NODE, SYS) or "internal" for two GPUs on one board.
type TopologyLink struct {
	GPUA    int    `json:"gpu_a"`
	GPUB    int    `json:"gpu_b"`
	Link    string `json:"link"`
	NVLinks int    `json:"nvlinks,omitempty"`
}

// Sample is one GPU's fast-changing state, for `devenv top`.
type Sample struct {
	Index           int         `json:"index"`
	UUID            string      `json:"uuid"`
	Utilization     Utilization `json:"utilization"`
	MemoryUsed      uint64      `json:"memory_used"`
	MemoryTotal     uint64      `json:"memory_total"`
	TemperatureC    int         `json:"temperature_c,omitempty"`
	PowerDrawW      float64     `json:"power_draw_w,omitempty"`
	ThrottleReasons []string    `json:"throttle_reasons,omitempty"`
	Processes       []Process   `json:"processes,omitempty"`
}

// Process is a process using a GPU. UsedMemory is 0 where the driver does
// not report it (for example inside some containers or on Windows WDDM).
type Process struct {
	PID        int    `json:"pid"`
	UsedMemory uint64 `json:"used_memory,omitempty"`
	Type       string `json:"type"` // "compute", "graphics" or "compute+graphics"
	// ContainerID is the container the process runs in when the inventory
	// knows it (the engine's probe reads it on the engine's machine); ""
	// means look it up in this machine's /proc.
	ContainerID string `json:"-"`
}
