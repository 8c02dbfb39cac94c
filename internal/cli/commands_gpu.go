package cli

import "github.com/urfave/cli/v2"

// gpuCommands are the GPU-awareness commands (gpus, top, doctor).
func gpuCommands() []*cli.Command { return nil }
