package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// This test binary links every package devenv links (plus testing), so
// running it again with GODEBUG=inittrace=1 shows devenv's package
// initialisation: what every command pays before main.

const ownPrefix = "github.com/devenv-dev/devenv/"

type initCost struct {
	pkg    string
	ms     float64
	bytes  int64
	allocs int64
}

// traceInit runs this test binary with no tests and returns the cost of
// each package's initialisation as the runtime reports it.
func traceInit(tb testing.TB) []initCost {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("running %s for its init trace: %v\n%s", os.Args[0], err, stderr.String())
	}
	var out []initCost
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" {
			continue
		}
		c := initCost{pkg: f[1]}
		c.ms, _ = strconv.ParseFloat(f[4], 64)
		c.bytes, _ = strconv.ParseInt(f[7], 10, 64)
		c.allocs, _ = strconv.ParseInt(f[9], 10, 64)
		out = append(out, c)
	}
	if len(out) == 0 {
		tb.Fatalf("no init trace from %s:\n%s", os.Args[0], stderr.String())
	}
	return out
}

type initSum struct {
	allMS, ownMS        float64
	ownBytes, ownAllocs int64
}

func sumInit(costs []initCost) initSum {
	var s initSum
	for _, c := range costs {
		if strings.HasPrefix(c.pkg, ownPrefix) {
			s.ownMS += c.ms
			s.ownBytes += c.bytes
			s.ownAllocs += c.allocs
		}
		s.allMS += c.ms
	}
	return s
}

// TestInitDoesNoWork keeps devenv's own packages from doing work before
// main: parsing the profile catalog, templates or compiling regexps there
// cost every command milliseconds (1.7 MB allocated before this test). It
// counts allocations, which do not depend on how loaded the machine is.
func TestInitDoesNoWork(t *testing.T) {
	const budget = 64 << 10
	costs := traceInit(t)
	s := sumInit(costs)
	if s.ownBytes > budget {
		sort.Slice(costs, func(i, j int) bool { return costs[i].bytes > costs[j].bytes })
		var top []string
		for _, c := range costs {
			if strings.HasPrefix(c.pkg, ownPrefix) && len(top) < 5 {
				top = append(top, fmt.Sprintf("%s %d bytes", c.pkg, c.bytes))
			}
		}
		t.Errorf("devenv's packages allocate %d bytes in init, budget %d: move the work to first use (sync.OnceValue, lazy.Regexp); largest: %s",
			s.ownBytes, budget, strings.Join(top, ", "))
	}
}

// BenchmarkInit reports package initialisation per process start: all
// packages (target < 5 ms) and devenv's own, as the runtime's inittrace
// measures them.
func BenchmarkInit(b *testing.B) {
	var all, own float64
	for b.Loop() {
		s := sumInit(traceInit(b))
		all, own = all+s.allMS, own+s.ownMS
	}
	n := float64(b.N)
	b.ReportMetric(all/n, "init-ms")
	b.ReportMetric(own/n, "own-init-ms")
}
