package cli

import (
	"runtime"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/urfave/cli/v2"
)

// gpuCommands are the GPU-awareness commands (gpus, top, doctor).
func gpuCommands() []*cli.Command {
	return []*cli.Command{gpusCommand(), topCommand(), doctorCommand()}
}

// openGPUs opens the machine's GPU inventory; tests replace it.
var openGPUs = gpu.Open

// connectEngine reaches the Docker engine for top and doctor; tests replace it.
var connectEngine = engine.Connect

// procRoot is where `devenv top` reads processes' cgroups.
var procRoot = "/proc"

// engineHostCheck is what to run where the engine runs to see its GPUs.
const engineHostCheck = "docker run --rm --gpus all nvidia/cuda:12.9.1-base-ubuntu22.04 nvidia-smi"

// noGPUNote explains why no GPU facts could be read and what to run instead.
func noGPUNote(err error) string {
	note := err.Error()
	if runtime.GOOS != "linux" {
		note += ". GPU facts come from the Docker engine's host (Docker Desktop / WSL2)"
	}
	return note + ". To see the GPUs the Docker engine can give containers, run: " + engineHostCheck
}
