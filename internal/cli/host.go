package cli

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/urfave/cli/v2"
)

// offlineHost is this machine's facts without asking the Docker engine:
// NVML when it loads, the CPU count and /proc/meminfo. Commands that only
// show or export a plan use it.
func offlineHost(c *cli.Context) plan.Host {
	h := plan.Host{CPUs: runtime.NumCPU(), MemoryBytes: memTotal()}
	inv, err := openGPUs()
	if err != nil {
		return h
	}
	defer inv.Close()
	if gh, err := inv.Host(c.Context); err == nil {
		h.GPUs = gh
	}
	return h
}

// memTotal reads MemTotal from /proc/meminfo; 16 GiB where there is none.
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 16 << 30
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil {
				return kb << 10
			}
		}
	}
	return 16 << 30
}
