//go:build linux && cgo

package gpu

import (
	"context"
	"fmt"
	"sync"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// nvmlInventory is the Inventory over an nvml.Interface: the real library
// from Open, or one of go-nvml's mock servers in tests.
type nvmlInventory struct {
	lib     nvml.Interface
	once    sync.Once
	initErr error
	mu      sync.Mutex
	closed  bool
}

// Open loads the system's NVML library and initializes it. Without the
// NVIDIA driver it returns an error wrapping ErrNoNVML that says why.
func Open() (Inventory, error) {
	inv := &nvmlInventory{lib: nvml.New()}
	if err := inv.init(); err != nil {
		return nil, err
	}
	return inv, nil
}

// NewFromNVML returns the Inventory reading lib. The library is initialized
// on first use, and shut down by Close.
func NewFromNVML(lib nvml.Interface) Inventory {
	return &nvmlInventory{lib: lib}
}

func (n *nvmlInventory) init() error {
	n.once.Do(func() {
		if ret := n.lib.Init(); ret != nvml.SUCCESS {
			n.initErr = initError(ret)
		}
	})
	return n.initErr
}

// Close shuts the library down; closing twice is harmless.
func (n *nvmlInventory) Close() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed || n.init() != nil {
		n.closed = true
		return nil
	}
	n.closed = true
	if ret := n.lib.Shutdown(); ret != nvml.SUCCESS {
		return fmt.Errorf("shutting NVML down: %s", nvml.ErrorString(ret))
	}
	return nil
}

func (n *nvmlInventory) ready(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	n.mu.Lock()
	closed := n.closed
	n.mu.Unlock()
	if closed {
		return fmt.Errorf("GPU inventory used after Close")
	}
	return n.init()
}

// initError explains a failed nvmlInit in words a user can act on.
func initError(ret nvml.Return) error {
	var reason string
	switch ret {
	case nvml.ERROR_LIBRARY_NOT_FOUND:
		reason = "libnvidia-ml.so.1 was not found: the NVIDIA driver is not installed on this machine " +
			"(or its libraries are not on the loader path). Install the NVIDIA driver and check that `nvidia-smi` works"
	case nvml.ERROR_DRIVER_NOT_LOADED:
		reason = "the NVIDIA kernel driver is not loaded. Check `nvidia-smi` and `dmesg | grep -i nvidia`; " +
			"after installing a driver, reboot"
	case nvml.ERROR_LIB_RM_VERSION_MISMATCH:
		reason = "the NVIDIA driver library and kernel module have different versions (driver upgraded without a reboot). Reboot"
	case nvml.ERROR_NO_PERMISSION:
		reason = "no permission to open /dev/nvidia*. Run as a user that may use the GPUs (check the device files' group)"
	default:
		reason = fmt.Sprintf("nvmlInit failed: %s. Check that `nvidia-smi` works", errorString(ret))
	}
	return fmt.Errorf("%w: %s", ErrNoNVML, reason)
}

// errorString names an NVML return code without needing the library loaded.
func errorString(ret nvml.Return) string {
	return ret.Error()
}
