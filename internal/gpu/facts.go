package gpu

import (
	"fmt"
	"strings"
)

// Architecture names the GPU generation of a CUDA compute capability, or ""
// when the capability is unknown to devenv.
func Architecture(major, minor int) string {
	switch {
	case major == 6:
		return "pascal"
	case major == 7 && minor == 0, major == 7 && minor == 2:
		return "volta"
	case major == 7 && minor == 5:
		return "turing"
	case major == 8 && minor == 9:
		return "ada"
	case major == 8:
		return "ampere"
	case major == 9:
		return "hopper"
	case major == 10, major == 11, major == 12:
		return "blackwell"
	}
	return ""
}

// computeCapability formats a compute capability as "9.0".
func computeCapability(major, minor int) string {
	return fmt.Sprintf("%d.%d", major, minor)
}

// cudaVersion turns NVML's CUDA driver version (12080) into "12.8".
func cudaVersion(v int) string {
	if v <= 0 {
		return ""
	}
	return fmt.Sprintf("%d.%d", v/1000, (v%1000)/10)
}

// throttleReasonNames are NVML's clock event (throttle) reason bits, in bit
// order, with the names devenv prints.
var throttleReasonNames = []struct {
	bit  uint64
	name string
}{
	{0x1, "gpu_idle"},
	{0x2, "applications_clocks_setting"},
	{0x4, "sw_power_cap"},
	{0x8, "hw_slowdown"},
	{0x10, "sync_boost"},
	{0x20, "sw_thermal_slowdown"},
	{0x40, "hw_thermal_slowdown"},
	{0x80, "hw_power_brake_slowdown"},
	{0x100, "display_clock_setting"},
}

// ThrottleReasons names the active reasons in NVML's clock event reason
// bitmask; bits devenv does not know are named by their hex value.
func ThrottleReasons(mask uint64) []string {
	var names []string
	for _, r := range throttleReasonNames {
		if mask&r.bit != 0 {
			names = append(names, r.name)
			mask &^= r.bit
		}
	}
	for bit := uint64(1); mask != 0 && bit != 0; bit <<= 1 {
		if mask&bit != 0 {
			names = append(names, fmt.Sprintf("0x%x", bit))
			mask &^= bit
		}
	}
	return names
}

// topologyLevelName names NVML's GPU topology level the way nvidia-smi topo
// does: 0 internal, 10 PIX, 20 PXB, 30 PHB, 40 NODE, 50 SYS.
func topologyLevelName(level int) string {
	switch level {
	case 0:
		return "internal"
	case 10:
		return "PIX"
	case 20:
		return "PXB"
	case 30:
		return "PHB"
	case 40:
		return "NODE"
	case 50:
		return "SYS"
	}
	return fmt.Sprintf("level-%d", level)
}

// cString converts a NUL-terminated C char array to a Go string.
func cString(b []int8) string {
	var sb strings.Builder
	for _, c := range b {
		if c == 0 {
			break
		}
		sb.WriteByte(byte(c))
	}
	return sb.String()
}

// normalizeBusID lower-cases a PCI bus id and shortens NVML's 8-digit
// domain ("00000000:18:00.0") to the usual 4 digits ("0000:18:00.0"), so
// ids from different NVML calls compare equal.
func normalizeBusID(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	if i := strings.IndexByte(id, ':'); i == 8 && strings.HasPrefix(id, "0000") {
		id = id[4:]
	}
	return id
}
