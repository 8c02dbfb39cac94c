package sparkconf

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
)

const script = "/opt/devenv/getGpusResources.sh"

// Hardware shapes the golden tests cover.
var (
	laptop      = Hardware{CPUs: 8, MemoryBytes: 32 * gib, GPUs: 1, GPUMemoryBytes: 8 * gib}
	workstation = Hardware{CPUs: 32, MemoryBytes: 256 * gib, GPUs: 2, GPUMemoryBytes: 48 * gib}
	// One H200 (nvidia-smi reports 143771 MiB) on a 16-core, 128 GiB host.
	h200   = Hardware{CPUs: 16, MemoryBytes: 128 * gib, GPUs: 1, GPUMemoryBytes: 143771 * mib}
	noGPU  = Hardware{CPUs: 4, MemoryBytes: 16 * gib}
	shared = Hardware{CPUs: 8, MemoryBytes: 32 * gib, GPUs: 1, GPUMemoryBytes: 24 * gib, AllocFraction: 0.2}
)

func input(hw Hardware, rapids string) Input {
	return Input{Spark: "3.5.1", Scala: "2.12", Rapids: rapids, Name: "spark", Hardware: hw, DiscoveryScript: script}
}

var prodLayer = Layer{Source: "prod/cluster.json", Conf: map[string]string{
	"spark.plugins":                "com.example.AuditPlugin",
	"spark.sql.shuffle.partitions": "400",
	"spark.executor.memory":        "64g",
	"spark.sql.adaptive.enabled":   "true",
	"spark.locality.wait":          "3s",
}}

var userLayer = Layer{Source: "devenv.yaml", Conf: map[string]string{
	"spark.sql.shuffle.partitions": "16",
	"spark.plugins":                "com.example.AuditPlugin, com.example.LineagePlugin",
}}

func goldenCases() map[string]Input {
	cases := map[string]Input{}
	for _, r := range []string{"25.04.0", "26.06.0"} {
		cases["laptop-"+r] = input(laptop, r)
		cases["workstation-"+r] = input(workstation, r)
		cases["h200-"+r] = input(h200, r)
	}
	layered := input(laptop, "26.06.0")
	layered.Mirrored = []Layer{prodLayer}
	layered.User = userLayer
	cases["layers"] = layered

	standalone := input(workstation, "26.06.0")
	standalone.Workers = 2
	standalone.RapidsShuffle = true
	cases["standalone-2-workers"] = standalone

	cpu := input(noGPU, "")
	cpu.RapidsShuffle = true
	cpu.Mirrored = []Layer{{Source: "prod/gpu-cluster.json", Conf: map[string]string{
		"spark.plugins":              "com.nvidia.spark.SQLPlugin",
		"spark.rapids.sql.enabled":   "true",
		"spark.shuffle.manager":      "com.nvidia.spark.rapids.spark351.RapidsShuffleManager",
		"spark.sql.adaptive.enabled": "true",
	}}}
	cases["cpu-fallback"] = cpu

	cases["shared-gpu-25.04.0"] = input(shared, "25.04.0")
	return cases
}

func TestGenerateGolden(t *testing.T) {
	for name, in := range goldenCases() {
		t.Run(name, func(t *testing.T) {
			c, err := Generate(in)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			explain, err := json.MarshalIndent(c.Explain(), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".conf", c.Render())
			golden(t, name+".explain.json", append(explain, '\n'))
		})
	}
}

// golden compares got with testdata/golden/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "golden", name), got)
}

func TestGenerateRules(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want map[string]string // "" = key must be absent from Map
	}{
		{"8 GiB GPU before 25.06: one concurrent task", input(laptop, "25.04.0"),
			map[string]string{"spark.rapids.sql.concurrentGpuTasks": "1", "spark.master": "local[*]", "spark.driver.resource.gpu.amount": "1"}},
		{"48 GiB GPU before 25.06: capped at four", input(workstation, "25.04.0"),
			map[string]string{"spark.rapids.sql.concurrentGpuTasks": "4"}},
		{"25.06.0 and later: plugin tunes it", input(h200, "25.06.0"),
			map[string]string{"spark.rapids.sql.concurrentGpuTasks": ""}},
		{"shared GPU: fractions and a smaller task count", input(shared, "25.04.0"),
			map[string]string{"spark.rapids.memory.gpu.allocFraction": "0.2", "spark.rapids.memory.gpu.maxAllocFraction": "0.2",
				"spark.rapids.memory.gpu.minAllocFraction": "0.2", "spark.rapids.sql.concurrentGpuTasks": "1"}},
		{"CPU fallback: plugin off, no GPU resources", input(noGPU, ""),
			map[string]string{"spark.rapids.sql.enabled": "false", "spark.plugins": "", "spark.executor.resource.gpu.amount": "",
				"spark.task.resource.gpu.amount": "", "spark.kryo.registrator": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Generate(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			m := c.Map()
			for k, want := range tt.want {
				got, ok := m[k]
				if want == "" && ok {
					t.Errorf("%s = %q, want it unset", k, got)
				}
				if want != "" && got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
		})
	}
}

func TestPrecedenceAndPluginAppend(t *testing.T) {
	in := input(laptop, "26.06.0")
	in.Mirrored = []Layer{prodLayer}
	in.User = userLayer
	c, err := Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]Entry{}
	for _, e := range c.Explain() {
		byKey[e.Key] = e
	}
	checks := []struct{ key, value, source string }{
		{"spark.sql.shuffle.partitions", "16", SourceUser},   // user beats mirror beats hardware
		{"spark.locality.wait", "3s", SourceMirror},          // mirror beats profile
		{"spark.sql.adaptive.enabled", "true", SourceMirror}, // mirror adds keys
		{"spark.executor.cores", "8", SourceHardware},        // hardware beats nothing
		{"spark.rapids.sql.enabled", "true", SourceProfile},  // profile default
		{"spark.plugins", "com.example.AuditPlugin,com.example.LineagePlugin," + SQLPlugin, SourceUser},
	}
	for _, ch := range checks {
		e := byKey[ch.key]
		if e.Value != ch.value || e.Source != ch.source {
			t.Errorf("%s = %q from %q, want %q from %q", ch.key, e.Value, e.Source, ch.value, ch.source)
		}
	}
	if _, ok := c.Map()["spark.executor.memory"]; ok {
		t.Errorf("prod's spark.executor.memory reached local mode; it sizes prod's hardware")
	}
	if r := byKey["spark.executor.memory"].Rule; !strings.Contains(r, "prod/cluster.json") {
		t.Errorf("dropped prod value not explained: %q", r)
	}
}

func TestPluginNeverDuplicated(t *testing.T) {
	in := input(laptop, "26.06.0")
	in.User = Layer{Source: "devenv.yaml", Conf: map[string]string{"spark.plugins": SQLPlugin + ",com.example.A," + SQLPlugin}}
	c, err := Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Map()["spark.plugins"], SQLPlugin+",com.example.A"; got != want {
		t.Errorf("spark.plugins = %q, want %q", got, want)
	}
}

func TestGenerateReportsAllProblems(t *testing.T) {
	in := Input{Spark: "3.5", Rapids: "next", Hardware: Hardware{CPUs: 0, MemoryBytes: 1, GPUs: 1, AllocFraction: 2}, Workers: 3,
		User: Layer{Source: "devenv.yaml", Conf: map[string]string{"": "x", "spark.a": " padded"}}}
	_, err := Generate(in)
	if err == nil {
		t.Fatal("Generate accepted a broken input")
	}
	for _, want := range []string{"spark version", "rapids version", "discovery script", "CPUs", "memory", "GPU memory",
		"alloc fraction", "3 workers but only 1 GPUs", "empty conf key", "Spark trims"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
}

func TestShuffleManagerClass(t *testing.T) {
	tests := []struct{ spark, want string }{
		{"3.3.0", "com.nvidia.spark.rapids.spark330.RapidsShuffleManager"},
		{"3.4.2", "com.nvidia.spark.rapids.spark342.RapidsShuffleManager"},
		{"3.5.1", "com.nvidia.spark.rapids.spark351.RapidsShuffleManager"},
		{"4.0.0", "com.nvidia.spark.rapids.spark400.RapidsShuffleManager"},
		{"3.5", ""},
		{"3.5.x", ""},
		{"3.5.10", ""},
	}
	for _, tt := range tests {
		got, err := ShuffleManagerClass(tt.spark)
		if (err != nil) != (tt.want == "") || got != tt.want {
			t.Errorf("ShuffleManagerClass(%q) = %q, %v; want %q", tt.spark, got, err, tt.want)
		}
	}
}
