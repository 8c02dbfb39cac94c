package cli

import (
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func gpusCommand() *cli.Command {
	return &cli.Command{
		Name:   "gpus",
		Usage:  "show this machine's NVIDIA driver, GPUs and how they are linked",
		Action: runGPUs,
	}
}

func runGPUs(c *cli.Context) error {
	res := app.GPUs(c.Context, openGPUs)
	return printer(c).Result(res, func(w io.Writer) { view.GPUs(w, res) })
}
