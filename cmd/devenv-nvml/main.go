// Command devenv-nvml reads this machine's NVIDIA GPUs through NVML for
// devenv-core, which is built without cgo (internal/gpu, HelperName):
// `devenv-nvml host` prints what `devenv gpus --json` shows of the GPUs,
// `devenv-nvml sample` what `devenv top` samples. It is built with cgo;
// without it (or without the NVIDIA driver) it says why and exits 3.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/devenv-dev/devenv/internal/gpu"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := gpu.ServeHelper(ctx, os.Args[1:], gpu.Open, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
