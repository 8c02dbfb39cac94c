//go:build linux && cgo

package cli

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/gpu"
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

// TestConfigSaysWhichDriverRuleChose: an unpinned rapids service resolves
// for the driver NVML reads, and for the first driver of the catalog's fallback branch (R580, a long-term support branch) when
// NVML cannot be read; config's notes say which.
func TestConfigSaysWhichDriverRuleChose(t *testing.T) {
	tests := []struct {
		name, shape, want string
	}{
		{"NVML read", "h100x8", "this machine's (read through NVML)"},
		{"no NVML", "", "long-term support branch (this machine's driver could not be read)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			project(t, "services:\n  nb:\n    profile: rapids\n    gpus: 1\n", false)
			if tc.shape != "" {
				useShape(t, tc.shape)
			} else {
				replace(t, &worldFor(t).GPUs, func() (gpu.Inventory, error) { return nil, gpu.ErrNoNVML })
			}
			out, errOut, code := runCLI(t, "config")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out, "note:     driver rule: ") || !strings.Contains(out, tc.want) {
				t.Errorf("config notes do not say the driver rule %q:\n%s", tc.want, out)
			}
		})
	}
}

// TestAGPUTheHostLacksExits4: with NVML readable, a GPU UUID or a count the
// host does not have is refused by devenv's placement with exit 4 (no
// compatible GPU), as the engine's own refusal is, naming the GPUs there.
func TestAGPUTheHostLacksExits4(t *testing.T) {
	tests := []struct{ name, gpus string }{
		{"unknown UUID", `["GPU-00000000-0000-0000-0000-000000000000"]`},
		{"more than the host has", "3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			project(t, "services:\n  nb:\n    profile: rapids\n    gpus: "+tc.gpus+"\n", false)
			useShape(t, "laptop")
			_, errOut, code := runCLI(t, "config")
			if code != 4 {
				t.Fatalf("exit %d, want 4: %s", code, errOut)
			}
			if !strings.Contains(errOut, "GPU 0 (") {
				t.Errorf("the refusal does not name the host's GPUs: %s", errOut)
			}
		})
	}
}
