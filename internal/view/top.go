package view

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/internal/app"
)

// Sample is one `devenv top` sample: GPU use, then the processes on them;
// a sample with a note says why there are no GPUs to watch.
func Sample(w io.Writer, s app.TopSample) {
	if s.Note != "" {
		fmt.Fprintf(w, "No NVIDIA GPU to watch: %s\n", s.Note)
		return
	}
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
