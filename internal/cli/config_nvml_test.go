//go:build linux && cgo

package cli

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
)

// TestConfigShowsPlacementAndMemorySplit: on a one-GPU laptop two GPU
// services share the GPU and config says how its memory is split; on the
// two-GPU workstation they get one GPU each.
func TestConfigShowsPlacementAndMemorySplit(t *testing.T) {
	project(t, twoGPUServices, true)
	useShape(t, "laptop")
	var cfg app.Config
	out, errOut, code := runCLI(t, "config", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if err := jsonDecode(out, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Placement == nil {
		t.Fatalf("no placement in config --json:\n%s", out)
	}
	spark, serve := cfg.Placement.Services["spark"], cfg.Placement.Services["serve"]
	if spark.AllocFraction <= 0 || spark.AllocFraction >= 1 || len(serve.Args) == 0 || !strings.HasPrefix(serve.Args[0], "--cuda-memory-pool-byte-size=") {
		t.Errorf("shared GPU split: spark %+v serve %+v", spark, serve)
	}
	var sparkConf string
	for _, s := range cfg.Services {
		if s.Name == "spark" && s.Spark != nil {
			for _, e := range s.Spark.Conf {
				if e.Key == "spark.rapids.memory.gpu.allocFraction" {
					sparkConf = e.Value
				}
			}
		}
	}
	if sparkConf == "" {
		t.Error("the spark service's confs lack its allocFraction")
	}

	useShape(t, "workstation")
	out, _, _ = runCLI(t, "config", "--json")
	cfg = app.Config{}
	if err := jsonDecode(out, &cfg); err != nil {
		t.Fatal(err)
	}
	a, b := cfg.Placement.Services["spark"], cfg.Placement.Services["serve"]
	if len(a.Devices) != 1 || len(b.Devices) != 1 || a.Devices[0] == b.Devices[0] {
		t.Errorf("workstation: spark %v serve %v should be on different GPUs", a.Devices, b.Devices)
	}
	text, _, _ := runCLI(t, "config")
	if !strings.Contains(text, "gpu:") {
		t.Errorf("text config does not show GPUs:\n%s", text)
	}
}
