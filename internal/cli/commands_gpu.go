package cli

import (
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
