package mirror

import "testing"

func TestDiff(t *testing.T) {
	host := Host{CPUs: 8, MemoryMB: 32768, GPUs: 1, GPUMemoryMB: 16384}
	prod := gpuProfile()
	prod.Runtime.Spark, prod.Runtime.Scala, prod.Runtime.Java = "3.4.1", "2.12", "8"
	prod.GPU.Rapids, prod.GPU.RapidsEnabled = "24.10.1", true
	same := func() LocalEnv {
		l := prod.Localize(host)
		return LocalEnv{Spark: "3.4.1", Scala: "2.12.15", Java: "1.8.0_392", Rapids: "24.10.1", Conf: l.Conf}
	}
	cases := []struct {
		name    string
		edit    func(*LocalEnv)
		drifted bool
		want    []Drift // Key, Change, Severity compared
	}{
		{"identical after scaling", func(*LocalEnv) {}, false, nil},
		{"spark patch differs", func(l *LocalEnv) { l.Spark = "3.4.2" }, true,
			[]Drift{{Key: "spark", Change: "different", Severity: SevBehaviour}}},
		{"vendor local build maps to same release", func(l *LocalEnv) { l.Spark = "3.4.1-amzn-0" }, false, nil},
		{"java differs", func(l *LocalEnv) { l.Java = "17.0.9" }, true,
			[]Drift{{Key: "java", Change: "different", Severity: SevBehaviour}}},
		{"behaviour conf differs", func(l *LocalEnv) { l.Conf = copyConf(l.Conf, "spark.sql.shuffle.partitions", "200") }, true,
			[]Drift{{Key: "spark.sql.shuffle.partitions", Change: "different", Severity: SevBehaviour}}},
		{"scaled conf differs is performance", func(l *LocalEnv) { l.Conf = copyConf(l.Conf, "spark.executor.memory", "64g") }, false,
			[]Drift{{Key: "spark.executor.memory", Change: "different", Severity: SevPerformance}}},
		{"missing behaviour conf", func(l *LocalEnv) { l.Conf = copyConf(l.Conf, "spark.sql.shuffle.partitions", "") }, true,
			[]Drift{{Key: "spark.sql.shuffle.partitions", Change: "missing", Severity: SevBehaviour}}},
		{"extra local sql conf", func(l *LocalEnv) { l.Conf = copyConf(l.Conf, "spark.sql.ansi.enabled", "true") }, true,
			[]Drift{{Key: "spark.sql.ansi.enabled", Change: "extra", Severity: SevBehaviour}}},
		{"local master is not drift", func(l *LocalEnv) { l.Conf = copyConf(l.Conf, "spark.master", "local[*]") }, false, nil},
		{"extra info conf", func(l *LocalEnv) { l.Conf = copyConf(l.Conf, "spark.ui.showConsoleProgress", "true") }, false,
			[]Drift{{Key: "spark.ui.showConsoleProgress", Change: "extra", Severity: SevInfo}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			local := same()
			tc.edit(&local)
			r := Diff(local, prod, host)
			if r.Drifted() != tc.drifted {
				t.Errorf("Drifted() = %v, want %v; items %+v", r.Drifted(), tc.drifted, r.Items)
			}
			if len(r.Items) != len(tc.want) {
				t.Fatalf("items = %+v, want %+v", r.Items, tc.want)
			}
			for i, w := range tc.want {
				g := r.Items[i]
				if g.Key != w.Key || g.Change != w.Change || g.Severity != w.Severity {
					t.Errorf("item %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// copyConf returns a copy of m with key set to v ("" deletes it).
func copyConf(m map[string]string, key, v string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, x := range m {
		out[k] = x
	}
	if v == "" {
		delete(out, key)
	} else {
		out[key] = v
	}
	return out
}
