package sparkconf

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTopology(t *testing.T) {
	three := workstation
	three.GPUs = 3
	tests := []struct {
		name      string
		in        Input
		master    string
		workerGPU [][]string
		execCores int
		note      string
	}{
		{"local", input(laptop, "26.06.0"), "local[*]", nil, 8, ""},
		{"local with two GPUs says one is used", input(workstation, "26.06.0"), "local[*]", nil, 32, "set workers: 2"},
		{"two workers, one GPU each", withWorkers(input(workstation, "26.06.0"), 2), "spark://spark:7077", [][]string{{"0"}, {"1"}}, 15, ""},
		{"three GPUs over two workers leaves one", withWorkers(input(three, "26.06.0"), 2), "spark://spark:7077", [][]string{{"0"}, {"1"}}, 15, "1 of the service's 3 GPUs are unused"},
		{"CPU workers", withWorkers(input(noGPU, ""), 1), "spark://spark:7077", [][]string{nil}, 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Topology(tt.in)
			if d.MasterURL != tt.master || d.Executor.Cores != tt.execCores {
				t.Errorf("master %s, executor cores %d; want %s, %d", d.MasterURL, d.Executor.Cores, tt.master, tt.execCores)
			}
			if len(d.Workers) != len(tt.workerGPU) {
				t.Fatalf("%d workers, want %d", len(d.Workers), len(tt.workerGPU))
			}
			for i, w := range d.Workers {
				if strings.Join(w.GPUs, ",") != strings.Join(tt.workerGPU[i], ",") {
					t.Errorf("worker %d GPUs %v, want %v", i+1, w.GPUs, tt.workerGPU[i])
				}
				if len(w.GPUs) > 0 && !strings.Contains(w.Env["SPARK_WORKER_OPTS"], "spark.worker.resource.gpu.discoveryScript="+script) {
					t.Errorf("worker %d cannot discover its GPUs: %v", i+1, w.Env)
				}
			}
			if tt.note != "" && !strings.Contains(strings.Join(d.Notes, "\n"), tt.note) {
				t.Errorf("notes %q lack %q", d.Notes, tt.note)
			}
		})
	}
	got, err := json.MarshalIndent(Topology(withWorkers(input(workstation, "26.06.0"), 2)), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "topology-standalone-2-workers.json", append(got, '\n'))
}

func withWorkers(in Input, n int) Input {
	in.Workers = n
	return in
}
