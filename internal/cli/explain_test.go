package cli

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/sparkconf"
)

func TestPrintExplain(t *testing.T) {
	tests := []struct {
		name string
		hw   sparkconf.Hardware
		cpu  string // CPU fallback reason
	}{
		{"h200", sparkconf.Hardware{CPUs: 16, MemoryBytes: 96 << 30, GPUs: 1, GPUMemoryBytes: 141 << 30}, ""},
		{"cpu-fallback", sparkconf.Hardware{CPUs: 2, MemoryBytes: 8 << 30}, "the Docker engine has no NVIDIA GPU runtime (gpu: optional)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conf, err := sparkconf.Generate(sparkconf.Input{Spark: "3.5.1", Scala: "2.12", Rapids: "25.08.0", Hardware: tt.hw,
				DiscoveryScript: "/opt/sparkRapidsPlugin/getGpusResources.sh",
				User:            sparkconf.Layer{Source: "devenv.yaml", Conf: map[string]string{"spark.sql.shuffle.partitions": "64"}},
				Mirrored:        []sparkconf.Layer{{Source: "prod/cluster.json", Conf: map[string]string{"spark.sql.adaptive.enabled": "false"}}}})
			if err != nil {
				t.Fatal(err)
			}
			rep := &app.SparkExplain{Service: "spark", From: app.FromLock, CPUFallback: tt.cpu != "", Reason: tt.cpu, Conf: conf.Explain(), Notes: conf.Notes()}
			sources := map[string]bool{}
			for _, e := range rep.Conf {
				sources[e.Source] = true
			}
			for _, s := range []string{"user", "mirror"} {
				if !sources[s] {
					t.Errorf("no key from %s: %v", s, sources)
				}
			}
			var b bytes.Buffer
			printExplain(&b, rep)
			b.WriteString("--- without --explain\n")
			printSparkDefaults(&b, rep)
			b.WriteString("--- --json\n")
			j, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(j, '\n'))
			goldenJobs(t, "config-spark-"+tt.name+".txt", b.Bytes())
		})
	}
}
