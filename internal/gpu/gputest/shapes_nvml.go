//go:build linux && cgo

package gputest

import (
	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/gpus"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"
)

// rtx4070Laptop is a consumer Ada laptop GPU with 8 GB.
var rtx4070Laptop = gpus.Config{
	Name:         "NVIDIA GeForce RTX 4070 Laptop GPU",
	Architecture: nvml.DEVICE_ARCH_ADA,
	Brand:        nvml.BRAND_GEFORCE,
	MemoryMB:     8188,
	CudaMajor:    8,
	CudaMinor:    9,
	PciDeviceId:  0x286010de,
}

// rtx6000Ada is a 48 GB Ada workstation GPU (no NVLink).
var rtx6000Ada = gpus.Config{
	Name:         "NVIDIA RTX 6000 Ada Generation",
	Architecture: nvml.DEVICE_ARCH_ADA,
	Brand:        nvml.BRAND_NVIDIA_RTX,
	MemoryMB:     49140,
	CudaMajor:    8,
	CudaMinor:    9,
	PciDeviceId:  0x26b110de,
}

// LaptopNVML is a laptop with one RTX 4070 Laptop GPU (8 GB, CC 8.9) that
// also drives the display; it reports no power limit, no MIG and no NVLink.
func LaptopNVML() *server.Server {
	return machine("570.133.07", 12080, card{
		config: rtx4070Laptop, usedMiB: 812, temperatureC: 46, powerMilliW: 14200,
		pcieGen: 4, pcieWidth: 8, clocks: [3]uint32{1410, 8001, 1410},
		util: nvml.Utilization{Gpu: 7, Memory: 3}, throttle: 0x1, persistence: false,
		graphics: []nvml.ProcessInfo{{Pid: 2154, UsedGpuMemory: 412 * mib}, {Pid: 3310, UsedGpuMemory: 96 * mib}},
		noMIG:    true,
	})
}

// WorkstationNVML is a workstation with two RTX 6000 Ada GPUs (48 GB, CC
// 8.9) on PCIe under one CPU socket.
func WorkstationNVML() *server.Server {
	ws := func(used uint64, temp uint32, compute []nvml.ProcessInfo) card {
		return card{
			config: rtx6000Ada, usedMiB: used, temperatureC: temp, powerMilliW: 61000, limitMilliW: 300000,
			pcieGen: 4, pcieWidth: 16, clocks: [3]uint32{2505, 10001, 2505},
			util: nvml.Utilization{Gpu: 0, Memory: 0}, persistence: true, compute: compute,
			noMIG: true, topologyLevel: nvml.TOPOLOGY_NODE,
		}
	}
	return machine("575.57.08", 12090,
		ws(1024, 38, []nvml.ProcessInfo{{Pid: 41000, UsedGpuMemory: 1000 * mib}}),
		ws(4, 35, nil),
	)
}

// H100x8NVML is an 8-GPU H100 80GB server (CC 9.0), every GPU with 18
// NVLinks to the NVSwitches, two GPUs busy.
func H100x8NVML() *server.Server {
	cards := make([]card, 8)
	for i := range cards {
		cards[i] = card{
			config: gpus.H100_SXM5_80GB, usedMiB: 4, temperatureC: 31, powerMilliW: 72000, limitMilliW: 700000,
			pcieGen: 5, pcieWidth: 16, clocks: [3]uint32{345, 2619, 345},
			throttle: 0x1, persistence: true, switchLinks: 18, topologyLevel: nvml.TOPOLOGY_SYSTEM,
		}
	}
	cards[0].usedMiB, cards[0].util, cards[0].throttle = 60000, nvml.Utilization{Gpu: 97, Memory: 61}, 0x4
	cards[0].compute = []nvml.ProcessInfo{{Pid: 7001, UsedGpuMemory: 59900 * mib}}
	cards[1].usedMiB, cards[1].util, cards[1].throttle = 20000, nvml.Utilization{Gpu: 40, Memory: 22}, 0
	cards[1].compute = []nvml.ProcessInfo{{Pid: 7002, UsedGpuMemory: 19900 * mib}, {Pid: 7003, UsedGpuMemory: ^uint64(0)}}
	return machine("550.54.15", 12040, cards...)
}

// A100MIGNVML is one A100 80GB (CC 8.0) in MIG mode, split into a 3g.40gb
// and two 2g.20gb MIG devices.
func A100MIGNVML() *server.Server {
	return machine("535.183.01", 12020, card{
		config: gpus.A100_SXM4_80GB, usedMiB: 0, temperatureC: 29, powerMilliW: 58000, limitMilliW: 400000,
		pcieGen: 4, pcieWidth: 16, clocks: [3]uint32{1410, 1593, 1410}, persistence: true,
		migProfiles: []int{nvml.GPU_INSTANCE_PROFILE_3_SLICE, nvml.GPU_INSTANCE_PROFILE_2_SLICE, nvml.GPU_INSTANCE_PROFILE_2_SLICE},
	})
}

// NoGPUNVML is a host whose NVIDIA driver loads but sees no GPU.
func NoGPUNVML() *server.Server {
	return machine("570.133.07", 12080)
}
