package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/test/standin"
)

func mirrorTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "internal", "mirror", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMirrorEachPlatformThenDiff is a new user's first hour: mirror a real
// event log of each platform (YARN, EMR, Dataproc, Databricks) and a
// Databricks cluster JSON into a fresh project with the built binary; the
// lock takes prod's exact Spark, Scala and Java, and diff exits 0 because
// nothing but hardware differs (its hardware lines show prod's real
// executors). A Spark 4.2 / Scala 2.13 log, which devenv cannot build
// exactly, is refused with exit 5 until accepted; then diff reports the
// Spark deviation with its reason, and exits 5 too.
func TestMirrorEachPlatformThenDiff(t *testing.T) {
	w := newWorld(t, standin.WithSpark("3.2.1", "3.3.0", "3.5.3", "4.1.1"), standin.WithScala("2.12", "2.13"),
		standin.WithRapids("25.10.0", "26.06.0"))
	cases := []struct {
		name, file               string
		spark, scala, java, plat string
	}{
		{"yarn", "real/eventlog_4nodes_8cores_dynamic_alloc.zstd", "3.2.1", "2.12", "8", "yarn"},
		{"emr", "public/join_agg_on_yarn_eventlog.zstd", "3.3.0", "2.12", "8", "emr"},
		{"dataproc", "public/nds_q72_dataproc_2_2.zstd", "3.5.3", "2.12", "11", "dataproc"},
		{"databricks", "real/xgboost_eventlog.zstd", "3.2.1", "2.12", "8", "databricks"},
		{"databricks-cluster-json", "real/databricks-azure-cpu-00.json", "3.3.0", "2.12", "8", "databricks"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "prod/" + filepath.Base(tc.file)
			dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids\n    jupyter: false\n    gpu: optional\n",
				map[string]string{src: mirrorTestdata(t, tc.file)})
			r := w.must(t, dir, "mirror", src)
			lf, err := lock.Read(filepath.Join(dir, "devenv.lock"))
			if err != nil {
				t.Fatal(err)
			}
			v := lf.Service("spark").Versions
			if v.Spark != tc.spark || v.Scala != tc.scala || v.Java != tc.java {
				t.Fatalf("locked %+v, want prod's spark %s, scala %s, java %s\n%s", v, tc.spark, tc.scala, tc.java, r.Stdout)
			}
			w.must(t, dir, "lock") // relocking with the previous lock keeps prod's versions
			if again, _ := lock.Read(filepath.Join(dir, "devenv.lock")); again.Service("spark").Versions != v {
				t.Fatalf("relock changed %+v to %+v", v, again.Service("spark").Versions)
			}
			d := w.run(t, dir, "diff", "--json")
			if d.Code != 0 {
				t.Fatalf("diff after mirroring %s: exit %d\n%s\n%s", tc.file, d.Code, d.Stdout, d.Stderr)
			}
			var res struct {
				Drifted  bool `json:"drifted"`
				Hardware []struct {
					Key, Prod string
				} `json:"hardware"`
			}
			if err := json.Unmarshal([]byte(d.Stdout), &res); err != nil || res.Drifted {
				t.Fatalf("diff --json: %v, drifted %v\n%s", err, res.Drifted, d.Stdout)
			}
			if tc.name != "databricks-cluster-json" && !hasKey(res.Hardware, "executors") {
				t.Errorf("diff does not show prod's executors: %s", d.Stdout)
			}
		})
	}
	t.Run("spark4-deviates", func(t *testing.T) {
		src := "prod/events_1_local-1766844910796"
		dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids\n    jupyter: false\n    gpu: optional\n",
			map[string]string{src: mirrorTestdata(t, "public/eventlog_v2_local-1766844910796/events_1_local-1766844910796")})
		before := readFile(t, filepath.Join(dir, "devenv.yaml"))
		r := w.run(t, dir, "mirror", src)
		if r.Code != 5 || !strings.Contains(r.Stderr, "spark: prod 4.2.0 -> local 4.1.1") || !strings.Contains(r.Stderr, "--accept-deviation") {
			t.Fatalf("mirror of a Spark 4.2 prod: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
		}
		if readFile(t, filepath.Join(dir, "devenv.yaml")) != before {
			t.Fatal("a refused mirror changed devenv.yaml")
		}
		r = w.must(t, dir, "mirror", src, "--accept-deviation")
		if !strings.Contains(r.Stdout, "deviates: spark: prod 4.2.0 -> local 4.1.1") {
			t.Errorf("mirror does not print the deviation:\n%s", r.Stdout)
		}
		lf, err := lock.Read(filepath.Join(dir, "devenv.lock"))
		if err != nil {
			t.Fatal(err)
		}
		if v := lf.Service("spark").Versions; v.Spark != "4.1.1" || v.Scala != "2.13" || v.Java != "17" {
			t.Fatalf("locked %+v, want 4.1.1 / 2.13 / 17", v)
		}
		if c := w.must(t, dir, "config"); !strings.Contains(c.Stdout, "deviates: from prod: spark: prod 4.2.0 -> local 4.1.1") {
			t.Errorf("config does not show the deviation:\n%s", c.Stdout)
		}
		d := w.run(t, dir, "diff")
		if d.Code != 5 || !strings.Contains(d.Stdout, "deviates from prod (devenv.lock): spark: prod 4.2.0 -> local 4.1.1") {
			t.Fatalf("diff: exit %d\n%s\n%s", d.Code, d.Stdout, d.Stderr)
		}
	})
}

func hasKey(items []struct{ Key, Prod string }, key string) bool {
	for _, it := range items {
		if it.Key == key {
			return true
		}
	}
	return false
}
