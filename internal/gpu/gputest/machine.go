//go:build linux && cgo

package gputest

import (
	"fmt"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/gpus"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"
)

const mib = 1024 * 1024

// card is what a mock GPU reports beyond go-nvml's server.Device defaults.
// A zero telemetry field makes the matching NVML call answer NOT_SUPPORTED.
type card struct {
	config        gpus.Config
	usedMiB       uint64
	temperatureC  uint32
	powerMilliW   uint32
	limitMilliW   uint32
	pcieGen       int
	pcieWidth     int
	clocks        [3]uint32 // SM, memory, graphics MHz
	util          nvml.Utilization
	throttle      uint64
	persistence   bool
	compute       []nvml.ProcessInfo
	graphics      []nvml.ProcessInfo
	switchLinks   int   // NVLinks to NVSwitches; 0: no NVLink at all
	noMIG         bool  // GPU without MIG support
	migProfiles   []int // MIG devices to create (GPU instance profile ids)
	topologyLevel nvml.GpuTopologyLevel
}

// machine builds a go-nvml mock server from cards, with fixed UUIDs and bus
// ids so that recorded output stays stable.
func machine(driver string, cuda int, cards ...card) *server.Server {
	configs := make([]gpus.Config, len(cards))
	for i, c := range cards {
		configs[i] = c.config
	}
	s := server.NewServerWithGPUs(driver, "12."+driver, cuda, configs...)
	for i, c := range cards {
		d := s.Devices[i].(*server.Device)
		d.UUID = fmt.Sprintf("GPU-%08x-0000-4000-8000-%012d", c.config.PciDeviceId, i)
		d.PciBusID = fmt.Sprintf("0000:%02x:00.0", 0x18+i*0x10)
		d.MemoryInfo.Used = c.usedMiB * mib
		d.MemoryInfo.Free = d.MemoryInfo.Total - d.MemoryInfo.Used
		c.wire(d, s)
	}
	return s
}

// wire sets the device's mock functions that go-nvml's server leaves unset.
func (c card) wire(d *server.Device, s *server.Server) {
	d.GetPciInfoFunc = func() (nvml.PciInfo, nvml.Return) {
		return pciInfo(d.PciBusID, c.config.PciDeviceId), nvml.SUCCESS
	}
	d.GetCurrPcieLinkGenerationFunc = func() (int, nvml.Return) { return intOr(c.pcieGen) }
	d.GetCurrPcieLinkWidthFunc = func() (int, nvml.Return) { return intOr(c.pcieWidth) }
	d.GetTemperatureFunc = func(nvml.TemperatureSensors) (uint32, nvml.Return) { return uintOr(c.temperatureC) }
	d.GetPowerUsageFunc = func() (uint32, nvml.Return) { return uintOr(c.powerMilliW) }
	d.GetEnforcedPowerLimitFunc = func() (uint32, nvml.Return) { return uintOr(c.limitMilliW) }
	d.GetClockInfoFunc = func(t nvml.ClockType) (uint32, nvml.Return) { return c.clock(t) }
	d.GetUtilizationRatesFunc = func() (nvml.Utilization, nvml.Return) { return c.util, nvml.SUCCESS }
	d.GetCurrentClocksEventReasonsFunc = func() (uint64, nvml.Return) { return c.throttle, nvml.SUCCESS }
	d.GetPersistenceModeFunc = func() (nvml.EnableState, nvml.Return) { return enabled(c.persistence), nvml.SUCCESS }
	d.GetComputeRunningProcessesFunc = func() ([]nvml.ProcessInfo, nvml.Return) { return c.compute, nvml.SUCCESS }
	d.GetGraphicsRunningProcessesFunc = func() ([]nvml.ProcessInfo, nvml.Return) { return c.graphics, nvml.SUCCESS }
	d.GetTopologyCommonAncestorFunc = func(nvml.Device) (nvml.GpuTopologyLevel, nvml.Return) {
		return c.topologyLevel, nvml.SUCCESS
	}
	c.wireNVLink(d)
	c.wireMIG(d)
}

func (c card) clock(t nvml.ClockType) (uint32, nvml.Return) {
	switch t {
	case nvml.CLOCK_SM:
		return uintOr(c.clocks[0])
	case nvml.CLOCK_MEM:
		return uintOr(c.clocks[1])
	case nvml.CLOCK_GRAPHICS:
		return uintOr(c.clocks[2])
	}
	return 0, nvml.ERROR_INVALID_ARGUMENT
}

// wireNVLink makes switchLinks links active, each leading to an NVSwitch.
func (c card) wireNVLink(d *server.Device) {
	d.GetNvLinkStateFunc = func(link int) (nvml.EnableState, nvml.Return) {
		switch {
		case c.switchLinks == 0:
			return 0, nvml.ERROR_NOT_SUPPORTED
		case link < c.switchLinks:
			return nvml.FEATURE_ENABLED, nvml.SUCCESS
		}
		return 0, nvml.ERROR_INVALID_ARGUMENT
	}
	d.GetNvLinkRemoteDeviceTypeFunc = func(int) (nvml.IntNvLinkDeviceType, nvml.Return) {
		return nvml.NVLINK_DEVICE_TYPE_SWITCH, nvml.SUCCESS
	}
	d.GetNvLinkRemotePciInfoFunc = func(int) (nvml.PciInfo, nvml.Return) {
		return pciInfo("0000:05:00.0", 0x22a310de), nvml.SUCCESS
	}
}

// wireMIG enables MIG mode with one MIG device per entry of migProfiles,
// sized as go-nvml's profile table says.
func (c card) wireMIG(d *server.Device) {
	if c.noMIG {
		d.GetMigModeFunc = func() (int, int, nvml.Return) { return 0, 0, nvml.ERROR_NOT_SUPPORTED }
	}
	if len(c.migProfiles) == 0 {
		return
	}
	_, _ = d.SetMigModeFunc(nvml.DEVICE_MIG_ENABLE) // the server mock always succeeds
	migs := make([]nvml.Device, len(c.migProfiles))
	for i, p := range c.migProfiles {
		migs[i] = c.migDevice(d, i, p)
	}
	d.GetMaxMigDeviceCountFunc = func() (int, nvml.Return) { return 7, nvml.SUCCESS }
	d.GetMigDeviceHandleByIndexFunc = func(i int) (nvml.Device, nvml.Return) {
		if i < 0 || i >= len(migs) {
			return nil, nvml.ERROR_NOT_FOUND
		}
		return migs[i], nvml.SUCCESS
	}
}

func (c card) migDevice(parent *server.Device, i, profile int) nvml.Device {
	info := c.config.MIGProfiles.GpuInstanceProfiles[profile]
	name := fmt.Sprintf("%s MIG %dg.%dgb", c.config.Name, info.SliceCount, (info.MemorySizeMB+1023)/1024)
	uuid := fmt.Sprintf("MIG-%08x-0000-4000-8000-%012d", c.config.PciDeviceId, parent.Index*10+i)
	return &mock.Device{
		GetUUIDFunc: func() (string, nvml.Return) { return uuid, nvml.SUCCESS },
		GetNameFunc: func() (string, nvml.Return) { return name, nvml.SUCCESS },
		GetMemoryInfoFunc: func() (nvml.Memory, nvml.Return) {
			return nvml.Memory{Total: info.MemorySizeMB * mib, Free: info.MemorySizeMB * mib}, nvml.SUCCESS
		},
	}
}

func pciInfo(busID string, deviceID uint32) nvml.PciInfo {
	p := nvml.PciInfo{PciDeviceId: deviceID}
	for i := 0; i < len(busID) && i < len(p.BusId)-1; i++ {
		p.BusId[i] = int8(busID[i])
	}
	return p
}

func intOr(v int) (int, nvml.Return) {
	if v == 0 {
		return 0, nvml.ERROR_NOT_SUPPORTED
	}
	return v, nvml.SUCCESS
}

func uintOr(v uint32) (uint32, nvml.Return) {
	if v == 0 {
		return 0, nvml.ERROR_NOT_SUPPORTED
	}
	return v, nvml.SUCCESS
}

func enabled(b bool) nvml.EnableState {
	if b {
		return nvml.FEATURE_ENABLED
	}
	return nvml.FEATURE_DISABLED
}
