package cli

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/urfave/cli/v2"
)

// gpuCommands are the GPU-awareness commands (gpus, top, doctor); they
// work outside a project too.
func gpuCommands() []*cli.Command {
	return []*cli.Command{
		{
			Name:  "gpus",
			Usage: "show this machine's NVIDIA driver, GPUs and how they are linked",
			Action: func(c *cli.Context) error {
				return show(c, app.GPUs(c.Context, options(c)), nil, view.GPUs)
			},
		},
		topCommand(),
		{
			Name:      "doctor",
			Usage:     "check that this machine can run the project: engine, GPU runtime, driver, GPUs, memory, disk, ports",
			ArgsUsage: "[SERVICE...]",
			Description: "Works inside a project (checks its locked services) and outside one (checks the machine).\n" +
				"Exits 3 when the engine cannot be reached, 4 when another check fails.",
			Action: runDoctor,
		},
	}
}

func runDoctor(c *cli.Context) error {
	rep, err := app.Doctor(c.Context, options(c), args(c))
	if err := show(c, rep, err, view.Doctor); err != nil {
		return err
	}
	if n := app.FailedChecks(rep); n > 0 {
		return app.Exitf(app.DoctorExitCode(rep), "doctor: %d check(s) failed; each FAIL line above says what to do", n)
	}
	return nil
}

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

// procRoot is where `devenv top` reads processes' cgroups; tests replace it.
var procRoot = "/proc"

func runTop(c *cli.Context) error {
	out := printer(c)
	o := app.TopOptions{ProcRoot: procRoot, Interval: c.Duration("interval"), Once: c.Bool("once")}
	if o.Interval <= 0 {
		return app.Exitf(app.ExitUsage, "--interval must be positive, got %s (e.g. --interval 2s)", o.Interval)
	}
	clear := !out.JSON && !o.Once && app.IsTerminal(out.Out)
	return app.Top(c.Context, options(c), o, func(s app.TopSample) error {
		if out.JSON {
			return json.NewEncoder(out.Out).Encode(s) // one object per line
		}
		if clear && s.Note == "" { // a refresh replaces the last sample; a note stays
			fmt.Fprint(out.Out, "\033[H\033[2J")
		}
		view.Sample(out.Out, s)
		return nil
	})
}
