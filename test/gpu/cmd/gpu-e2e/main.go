// Command gpu-e2e is devenv's GPU end-to-end suite: on a machine with NVIDIA
// GPUs and an engine with the NVIDIA runtime (test/gpu/run.sh provides one),
// it brings up projects of tiny image services with the devenv binary and
// checks, from inside the containers and from NVML, what the GPUs really
// did. It prints one line per check, a summary "N passed, N failed", and
// writes a dated transcript (see package gpusuite).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	gpusuite "github.com/devenv-dev/devenv/test/gpu"
)

// errSkip marks a check that cannot apply on this machine; its message says why.
var errSkip = errors.New("skipped")

func skipf(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errSkip, fmt.Sprintf(format, a...))
}

func main() {
	payload := flag.String("payload", "/tmp/devenv-gpu", "unpacked payload (bin/devenv, bin/devenv-core and bin/devenv-nvml, the same without devenv-nvml in bin/nocgo/, probe, rootfs-base.tar)")
	engineKind := flag.String("engine", "own", "which engine run.sh started: own or payload")
	outDir := flag.String("out", ".", "folder for the transcript")
	machine := flag.String("machine", "", "what this machine is, for the transcript (default: N GPUs)")
	status := flag.Bool("engine-status", false, "print the engine's GPU runtime (nvidia, none or unreachable) and exit")
	flag.Parse()
	if *status {
		fmt.Println(newEngineAPI().gpuRuntime())
		return
	}
	s, err := newSuite(*payload, *machine)
	if err != nil {
		fmt.Println("SKIP e2e-gpu:", err)
		return
	}
	defer s.cleanup()
	s.t.Engine = s.api.describe(*engineKind)
	fmt.Printf("e2e-gpu: driver %s, CUDA %s, %d GPU(s), %s\n", s.t.Driver, s.t.CUDA, len(s.t.GPUs), s.t.Engine)
	for _, c := range s.checks() {
		s.do(c.name, c.fn)
	}
	fmt.Printf("e2e-gpu: %s\n", s.t.Summary())
	if path, err := s.writeTranscript(*outDir); err != nil {
		fmt.Println("e2e-gpu: transcript not written:", err)
	} else {
		fmt.Println("e2e-gpu: transcript", path)
	}
	if s.t.Failed > 0 {
		os.Exit(1)
	}
}

// do runs one check, prints its line and records it.
func (s *suite) do(name string, fn func() ([]string, error)) {
	start := time.Now()
	ev, err := fn()
	c := gpusuite.Check{Name: name, Result: gpusuite.Pass, Seconds: time.Since(start).Seconds(), Evidence: ev}
	switch {
	case errors.Is(err, errSkip):
		c.Result = gpusuite.Skip
		c.Evidence = append(c.Evidence, err.Error())
	case err != nil:
		c.Result = gpusuite.Fail
		c.Evidence = append(c.Evidence, "FAILED: "+err.Error())
	}
	if len(c.Evidence) == 0 {
		c.Evidence = []string{"(no evidence recorded)"}
	}
	s.t.Add(c)
	first := strings.SplitN(c.Evidence[len(c.Evidence)-1], "\n", 2)[0]
	if c.Result == gpusuite.Pass {
		first = strings.SplitN(c.Evidence[0], "\n", 2)[0]
	}
	fmt.Printf("%s %s (%.1fs): %s\n", c.Result, name, c.Seconds, clip(first, 200))
}

func (s *suite) writeTranscript(dir string) (string, error) {
	label := s.t.Machine
	if label == "" {
		label = fmt.Sprintf("%dgpu", len(s.t.GPUs))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%s.txt", label, s.t.Date.Format("2006-01-02")))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := s.t.Write(f); err != nil {
		_ = f.Close() // the write error is the one to report
		return "", err
	}
	return path, f.Close()
}

func sortStrings(s []string) []string {
	sort.Strings(s)
	return s
}
