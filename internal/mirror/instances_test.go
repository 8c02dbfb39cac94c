package mirror

import (
	"strings"
	"testing"
)

func TestInstanceCatalog(t *testing.T) {
	c, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range c {
		if !strings.HasPrefix(in.Source, "https://") {
			t.Errorf("%s: source %q is not a provider page", name, in.Source)
		}
		if in.GPUs > 0 && (in.GPU == "" || in.GPUMemoryGB == 0) {
			t.Errorf("%s: %d GPUs without model or memory", name, in.GPUs)
		}
		if in.VCPUs == 0 && !strings.HasPrefix(name, "nvidia-") {
			t.Errorf("%s: no vCPUs", name)
		}
	}
	cases := []struct{ name, want string }{
		{"g5.12xlarge", "4x A10G 24 GB per node"},
		{"Standard_NC8as_T4_v3", "1x T4 16 GB per node"},
		{"standard_nc64as_t4_v3", "4x T4 16 GB per node"},
		{"p4d.24xlarge", "8x A100 40 GB per node"},
		{"g2-standard-16", "1x L4 24 GB per node"},
		{"m5.xlarge", "no GPU per node (m5.xlarge)"},
		{"n1-standard-1", "no GPU per node (n1-standard-1)"}, // corpus6 gcpex-init.sh's workers
		{"x9.huge", "unknown (x9.huge is not in the instance catalog)"},
	}
	for _, tc := range cases {
		p := newProfile("t", FormatDatabricks)
		p.Source.Platform = "databricks"
		p.Topology.WorkerType = tc.name
		p.applyCatalog()
		eq(t, tc.name, p.GPUSummary(), tc.want)
		if strings.HasPrefix(tc.want, "unknown") {
			eq(t, tc.name+" vcpus", p.Topology.WorkerVCPUs, 0)
			if len(p.Warnings) == 0 {
				t.Errorf("%s: no warning for an unknown type", tc.name)
			}
		} else {
			eq(t, tc.name+" executor gpus", p.GPU.ExecutorGPUs, float64(p.GPU.PerNode))
		}
	}
}

func TestDiffShowsProdValueBesideScaled(t *testing.T) {
	p := newProfile("t", FormatSparkDefaults)
	p.Conf["spark.executor.memory"] = "64g"
	p.Conf["spark.executor.cores"] = "16"
	p.GPU.PerNode, p.GPU.Model = 4, "T4"
	r := Diff(LocalEnv{Conf: map[string]string{}}, p, Host{CPUs: 4, MemoryMB: 16384})
	var mem Drift
	for _, d := range r.Items {
		if d.Key == "spark.executor.memory" {
			mem = d
		}
	}
	eq(t, "prod", mem.Prod, "64g")
	if mem.Scaled == "" || mem.Scaled == "64g" {
		t.Errorf("scaled = %q, want the value fitted to the host", mem.Scaled)
	}
	if len(r.Hardware) != 1 || !strings.Contains(r.Hardware[0].Prod, "4x T4") || !strings.Contains(r.Hardware[0].Why, "cannot reproduce") {
		t.Errorf("hardware = %+v", r.Hardware)
	}
}

func TestEventLogFailures(t *testing.T) {
	p, err := Import("testdata/written/gpu_eventlog_failed", Options{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[string][]Failure{}
	for _, f := range p.Failures {
		byKind[f.Kind] = append(byKind[f.Kind], f)
	}
	eq(t, "jobs", len(byKind[FailJob]), 1)
	eq(t, "stages", len(byKind[FailStage]), 1)
	eq(t, "task kinds", len(byKind[FailTask]), 2)
	eq(t, "oom tasks", byKind[FailTask][0].Count, 3)
	eq(t, "first oom", byKind[FailTask][0].First, "stage 3, task 10 on executor 1")
	eq(t, "executors lost", len(byKind[FailExecutor]), 1)
	p.Classify(func(text string) (string, string) {
		if strings.Contains(text, "GpuRetryOOM") {
			return "gpu-oom", "m"
		}
		return "", ""
	})
	eq(t, "classified", p.Failures[0].Signature, "gpu-oom")
	early, _ := Import("testdata/written/gpu_eventlog_failed", Options{})
	eq(t, "early read lists no failures", len(early.Failures), 0)
}
