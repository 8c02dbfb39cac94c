//go:build linux && cgo

package gpu

import (
	"context"
	"fmt"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// Host reads the driver versions, every GPU and, with more than one GPU,
// how they are linked.
func (n *nvmlInventory) Host(ctx context.Context) (*Host, error) {
	if err := n.ready(ctx); err != nil {
		return nil, err
	}
	r := &reader{}
	h := &Host{GPUs: []GPU{}}
	if v, ret := n.lib.SystemGetDriverVersion(); r.optional(ret, "host", "the driver version") {
		h.DriverVersion = v
	}
	if v, ret := n.lib.SystemGetCudaDriverVersion(); r.optional(ret, "host", "the CUDA driver version") {
		h.CUDADriverVersion = cudaVersion(v)
	}
	if v, ret := n.lib.SystemGetNVMLVersion(); r.optional(ret, "host", "the NVML version") {
		h.NVMLVersion = v
	}
	devs := r.devices(n.lib)
	for i, d := range devs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h.GPUs = append(h.GPUs, r.gpu(d, i))
	}
	if len(devs) > 1 && len(devs) == len(h.GPUs) {
		h.Topology = r.topology(devs, h.GPUs)
	}
	if err := r.err(); err != nil {
		return nil, err
	}
	return h, nil
}

// gpu reads one GPU; i is its position, used until NVML says its index.
func (r *reader) gpu(d nvml.Device, i int) GPU {
	g := GPU{Index: i}
	where := fmt.Sprintf("GPU %d", i)
	if idx, ret := d.GetIndex(); r.required(ret, where, "its index") {
		g.Index = idx
	}
	if v, ret := d.GetUUID(); r.required(ret, where, "its UUID") {
		g.UUID = v
	}
	if v, ret := d.GetName(); r.optional(ret, where, "its name") {
		g.Name = v
	}
	if v, ret := d.GetBrand(); r.optional(ret, where, "its brand") {
		g.Brand = BrandName(v)
	}
	if major, minor, ret := d.GetCudaComputeCapability(); r.optional(ret, where, "its compute capability") {
		g.ComputeCapability = computeCapability(major, minor)
		g.Architecture = Architecture(major, minor)
	}
	if m, ret := d.GetMemoryInfo(); r.required(ret, where, "its memory") {
		g.MemoryTotal, g.MemoryUsed, g.MemoryFree = m.Total, m.Used, m.Free
	}
	r.pcie(d, where, &g)
	g.TemperatureC = r.temperature(d, where)
	g.PowerDrawW = r.powerDraw(d, where)
	if mw, ret := d.GetEnforcedPowerLimit(); r.optional(ret, where, "its power limit") {
		g.PowerLimitW = float64(mw) / 1000
	}
	g.Clocks = r.clocks(d, where)
	g.Utilization = r.utilization(d, where)
	g.ThrottleReasons = r.throttleReasons(d, where)
	if pm, ret := d.GetPersistenceMode(); r.optional(ret, where, "persistence mode") {
		g.PersistenceMode = pm == nvml.FEATURE_ENABLED
	}
	if cur, _, ret := d.GetMigMode(); r.optional(ret, where, "MIG mode") {
		g.MIGMode = cur == nvml.DEVICE_MIG_ENABLE
	}
	if g.MIGMode {
		g.MIGDevices = r.migDevices(d, where)
	}
	return g
}

func (r *reader) pcie(d nvml.Device, where string, g *GPU) {
	if p, ret := d.GetPciInfo(); r.optional(ret, where, "its PCI info") {
		g.PCIBusID = normalizeBusID(cString(p.BusId[:]))
	}
	if v, ret := d.GetCurrPcieLinkGeneration(); r.optional(ret, where, "its PCIe generation") {
		g.PCIeGeneration = v
	}
	if v, ret := d.GetCurrPcieLinkWidth(); r.optional(ret, where, "its PCIe width") {
		g.PCIeWidth = v
	}
}

func (r *reader) clocks(d nvml.Device, where string) Clocks {
	read := func(t nvml.ClockType, what string) int {
		v, ret := d.GetClockInfo(t)
		if !r.optional(ret, where, what) {
			return 0
		}
		return int(v)
	}
	return Clocks{
		SM:       read(nvml.CLOCK_SM, "its SM clock"),
		Memory:   read(nvml.CLOCK_MEM, "its memory clock"),
		Graphics: read(nvml.CLOCK_GRAPHICS, "its graphics clock"),
	}
}

// migDevices lists the MIG devices that exist on a GPU in MIG mode.
func (r *reader) migDevices(d nvml.Device, where string) []MIGDevice {
	max, ret := d.GetMaxMigDeviceCount()
	if !r.optional(ret, where, "its MIG device count") {
		return nil
	}
	var out []MIGDevice
	for i := 0; i < max; i++ {
		m, ret := d.GetMigDeviceHandleByIndex(i)
		if ret == nvml.ERROR_NOT_FOUND || ret == nvml.ERROR_INVALID_ARGUMENT {
			continue // no MIG device in this slot
		}
		migWhere := fmt.Sprintf("%s MIG device %d", where, i)
		if !r.optional(ret, migWhere, "its handle") {
			continue
		}
		md := MIGDevice{}
		if v, ret := m.GetUUID(); r.required(ret, migWhere, "its UUID") {
			md.UUID = v
		}
		if v, ret := m.GetName(); r.optional(ret, migWhere, "its name") {
			md.Name = v
		}
		if mem, ret := m.GetMemoryInfo(); r.optional(ret, migWhere, "its memory") {
			md.MemoryTotal = mem.Total
		}
		out = append(out, md)
	}
	return out
}
