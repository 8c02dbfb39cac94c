package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/gpu"
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
	return printer(c).Result(res, func(w io.Writer) { renderGPUs(w, res) })
}

func renderGPUs(w io.Writer, res app.GPUsResult) {
	if res.Note != "" && len(res.GPUs) == 0 {
		fmt.Fprintf(w, "No NVIDIA GPU to show: %s\n", res.Note)
		return
	}
	fmt.Fprintf(w, "driver %s   CUDA %s   NVML %s\n\n", orDash(res.DriverVersion), orDash(res.CUDADriverVersion), orDash(res.NVMLVersion))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GPU\tNAME\tARCH/CC\tMEMORY USED/TOTAL\tMIG\tPCIE\tTEMP\tPOWER DRAW/LIMIT\tCLOCKS SM/MEM\tUTIL GPU/MEM\tPERSIST\tTHROTTLE")
	for _, g := range res.GPUs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s / %s\t%s\t%s\t%s\t%s\t%s\t%d%% / %d%%\t%s\t%s\n",
			g.Index, g.Name, archCC(g), gib(g.MemoryUsed), gib(g.MemoryTotal), onOff(g.MIGMode), pcie(g),
			celsius(g.TemperatureC), power(g.PowerDrawW, g.PowerLimitW), clocks(g.Clocks),
			g.Utilization.GPU, g.Utilization.Memory, onOff(g.PersistenceMode), throttle(g.ThrottleReasons))
		for _, m := range g.MIGDevices {
			fmt.Fprintf(tw, "  MIG\t%s\t%s\t%s\n", m.Name, m.UUID, gib(m.MemoryTotal))
		}
	}
	tw.Flush()
	renderTopology(w, res.Host)
}

// renderTopology prints the link matrix between GPUs, as `nvidia-smi topo -m`.
func renderTopology(w io.Writer, h gpu.Host) {
	if len(h.GPUs) < 2 || len(h.Topology) == 0 {
		return
	}
	link := map[[2]int]string{}
	for _, l := range h.Topology {
		link[[2]int{l.GPUA, l.GPUB}], link[[2]int{l.GPUB, l.GPUA}] = l.Link, l.Link
	}
	fmt.Fprintln(w, "\nTopology:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := []string{""}
	for _, g := range h.GPUs {
		header = append(header, fmt.Sprintf("GPU%d", g.Index))
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, a := range h.GPUs {
		row := []string{fmt.Sprintf("GPU%d", a.Index)}
		for _, b := range h.GPUs {
			cell := "X"
			if a.Index != b.Index {
				cell = orDash(link[[2]int{a.Index, b.Index}])
			}
			row = append(row, cell)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

func archCC(g gpu.GPU) string {
	return strings.TrimSpace(g.Architecture + " " + g.ComputeCapability)
}

func gib(b uint64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }

func pcie(g gpu.GPU) string {
	if g.PCIeGeneration == 0 {
		return "-"
	}
	return fmt.Sprintf("gen%d x%d", g.PCIeGeneration, g.PCIeWidth)
}

func celsius(t int) string {
	if t == 0 {
		return "-"
	}
	return fmt.Sprintf("%dC", t)
}

func power(draw, limit float64) string {
	if draw == 0 && limit == 0 {
		return "-"
	}
	l := "-"
	if limit > 0 {
		l = fmt.Sprintf("%.0f", limit)
	}
	return fmt.Sprintf("%.0f / %s W", draw, l)
}

func clocks(c gpu.Clocks) string {
	if c.SM == 0 && c.Memory == 0 {
		return "-"
	}
	return fmt.Sprintf("%d / %d MHz", c.SM, c.Memory)
}

func throttle(r []string) string {
	if len(r) == 0 {
		return "none"
	}
	return strings.Join(r, ",")
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
