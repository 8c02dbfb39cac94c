//go:build !(linux && cgo)

package gpu

import (
	"fmt"
	"runtime"
)

// Open reads the GPUs through the helper program beside this one (Linux:
// devenv-core is built without cgo, devenv-nvml with it), or reports that
// NVML cannot be read from this build.
func Open() (Inventory, error) {
	if runtime.GOOS == "linux" {
		if p := helperPath(); p != "" {
			return OpenHelper(p)
		}
	}
	return nil, fmt.Errorf("%w: %s", ErrNoNVML, noNVMLReason(runtime.GOOS))
}

// noNVMLReason says where GPU facts come from on goos instead.
func noNVMLReason(goos string) string {
	switch goos {
	case "darwin":
		return "macOS has no NVIDIA GPUs for containers; GPU facts come from the Docker engine's host. " +
			"Point DOCKER_HOST at a Linux machine with NVIDIA GPUs and run `devenv gpus` there"
	case "windows":
		return "on Windows the GPUs are used by the engine's host (Docker Desktop with the WSL2 backend); " +
			"run `nvidia-smi` in a WSL2 shell to check them, and run `devenv gpus` inside WSL2 for the full inventory"
	case "linux":
		return "devenv-core reads NVML through " + HelperName + ", which is not installed beside it; " +
			"reinstall devenv (its programs come together, or run make build), and check the GPUs with `nvidia-smi` meanwhile"
	}
	return fmt.Sprintf("devenv cannot read NVIDIA GPUs on %s; GPU facts come from the Docker engine's host: run `nvidia-smi` there", goos)
}
