package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/ui"
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
	clear := !out.JSON && !once && topTerminal(out.Out)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		s, err := app.Sample(ctx, inv, eng, procRoot)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("reading GPU samples through NVML: %w", err)
		}
		if clear {
			fmt.Fprint(out.Out, "\033[H\033[2J")
		}
		if err := printSample(out, s); err != nil {
			return err
		}
		if once {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil // Ctrl-C ends top normally
		case <-tick.C:
		}
	}
}

func printSample(out *ui.Printer, s app.TopSample) error {
	if out.JSON {
		return json.NewEncoder(out.Out).Encode(s) // one object per line
	}
	renderSample(out.Out, s)
	return nil
}

func renderSample(w io.Writer, s app.TopSample) {
	fmt.Fprintf(w, "%s\n", s.Time.Local().Format("2006-01-02 15:04:05"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GPU\tUTIL\tMEM UTIL\tMEMORY USED/TOTAL\tTEMP\tPOWER\tTHROTTLE")
	for _, g := range s.GPUs {
		fmt.Fprintf(tw, "%d\t%d%%\t%d%%\t%s / %s\t%s\t%s\t%s\n", g.Index, g.Utilization.GPU, g.Utilization.Memory,
			gib(g.MemoryUsed), gib(g.MemoryTotal), celsius(g.TemperatureC), power(g.PowerDrawW, 0), throttle(g.ThrottleReasons))
	}
	tw.Flush()
	renderProcesses(w, s)
}

func renderProcesses(w io.Writer, s app.TopSample) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	for _, g := range s.GPUs {
		for _, p := range g.Processes {
			if !header {
				fmt.Fprintln(tw, "\nGPU\tPID\tTYPE\tGPU MEMORY\tSERVICE\tCONTAINER")
				header = true
			}
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\n", g.Index, p.PID, p.Type, gib(p.UsedMemory), serviceOf(p), orDash(p.Container))
		}
	}
	if !header {
		fmt.Fprintln(tw, "\nno GPU processes")
	}
	tw.Flush()
}

func serviceOf(p app.TopProcess) string {
	switch {
	case p.Service != "":
		return p.Project + "/" + p.Service
	case p.Container != "":
		return "(not devenv)"
	}
	return "(host)"
}

func topTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
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
