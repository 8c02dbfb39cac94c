//go:build linux && cgo

package gpu

import (
	"fmt"

	"github.com/hashicorp/go-multierror"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// reader collects the errors of one read. Optional facts that the device or
// driver does not offer (NOT_SUPPORTED, FUNCTION_NOT_FOUND, NO_PERMISSION)
// are left empty; any other failure is recorded with what was being read.
type reader struct {
	errs *multierror.Error
}

// optional reports whether ret succeeded, recording real failures.
func (r *reader) optional(ret nvml.Return, where, what string) bool {
	switch ret {
	case nvml.SUCCESS:
		return true
	case nvml.ERROR_NOT_SUPPORTED, nvml.ERROR_FUNCTION_NOT_FOUND, nvml.ERROR_NO_PERMISSION,
		nvml.ERROR_NOT_FOUND:
		return false
	}
	r.fail(ret, where, what)
	return false
}

// required reports whether ret succeeded, recording every failure.
func (r *reader) required(ret nvml.Return, where, what string) bool {
	if ret == nvml.SUCCESS {
		return true
	}
	r.fail(ret, where, what)
	return false
}

func (r *reader) fail(ret nvml.Return, where, what string) {
	r.errs = multierror.Append(r.errs, fmt.Errorf("%s: reading %s through NVML: %s", where, what, errorString(ret)))
}

func (r *reader) err() error {
	if r.errs == nil {
		return nil
	}
	return r.errs.ErrorOrNil()
}

// devices returns every GPU handle, in NVML index order.
func (r *reader) devices(lib nvml.Interface) []nvml.Device {
	count, ret := lib.DeviceGetCount()
	if !r.required(ret, "host", "the number of GPUs") {
		return nil
	}
	devs := make([]nvml.Device, 0, count)
	for i := 0; i < count; i++ {
		d, ret := lib.DeviceGetHandleByIndex(i)
		if r.required(ret, fmt.Sprintf("GPU %d", i), "its handle") {
			devs = append(devs, d)
		}
	}
	return devs
}

// throttleReasons reads the active clock event reasons, through the newer
// call first and the deprecated one on drivers that lack it.
func (r *reader) throttleReasons(d nvml.Device, where string) []string {
	mask, ret := d.GetCurrentClocksEventReasons()
	if ret == nvml.ERROR_FUNCTION_NOT_FOUND {
		mask, ret = d.GetCurrentClocksThrottleReasons()
	}
	if !r.optional(ret, where, "clock throttle reasons") {
		return nil
	}
	return ThrottleReasons(mask)
}

func (r *reader) temperature(d nvml.Device, where string) int {
	t, ret := d.GetTemperature(nvml.TEMPERATURE_GPU)
	if !r.optional(ret, where, "temperature") {
		return 0
	}
	return int(t)
}

func (r *reader) powerDraw(d nvml.Device, where string) float64 {
	mw, ret := d.GetPowerUsage()
	if !r.optional(ret, where, "power draw") {
		return 0
	}
	return float64(mw) / 1000
}

func (r *reader) utilization(d nvml.Device, where string) Utilization {
	u, ret := d.GetUtilizationRates()
	if !r.optional(ret, where, "utilization") {
		return Utilization{}
	}
	return Utilization{GPU: int(u.Gpu), Memory: int(u.Memory)}
}
