package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/tty"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

func topCommand() *cli.Command {
	return &cli.Command{
		Name:  "top",
		Usage: "watch GPU use and which devenv service runs on each GPU (Ctrl-C to stop)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "once", Usage: "print one sample and exit"},
			&cli.DurationFlag{Name: "interval", Value: 2 * time.Second, Usage: "time between samples"},
		},
		Action: runTop,
	}
}

func runTop(c *cli.Context) error {
	out := printer(c)
	interval := c.Duration("interval")
	if interval <= 0 {
		return exitcode.Newf(exitcode.Usage, "--interval must be positive, got %s (e.g. --interval 2s)", interval)
	}
	inv, err := openGPUs()
	if err != nil {
		note := app.NoGPUNote(err)
		if out.JSON {
			return printSample(out, app.TopSample{Time: time.Now().UTC(), GPUs: []app.TopGPU{}, Note: note})
		}
		fmt.Fprintf(out.Out, "No NVIDIA GPU to watch: %s\n", note)
		return nil
	}
	defer func() { _ = inv.Close() }()
	eng, err := connectEngine(c.Context)
	if err != nil {
		out.Say("the Docker engine is unreachable, so processes show container ids only: %v", firstLineOf(err))
		eng = nil
	} else {
		defer func() { _ = eng.Close() }()
	}
	return topLoop(c.Context, out, inv, eng, interval, c.Bool("once"))
}

func topLoop(ctx context.Context, out *ui.Printer, inv gpu.Inventory, eng engine.Engine, interval time.Duration, once bool) error {
	clear := !out.JSON && !once && tty.Is(out.Out)
	return app.Watch(ctx, inv, eng, procRoot, interval, once, func(s app.TopSample) error {
		if clear {
			fmt.Fprint(out.Out, "\033[H\033[2J")
		}
		return printSample(out, s)
	})
}

func printSample(out *ui.Printer, s app.TopSample) error {
	if out.JSON {
		return json.NewEncoder(out.Out).Encode(s) // one object per line
	}
	view.Sample(out.Out, s)
	return nil
}

func firstLineOf(err error) string {
	s := err.Error()
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
