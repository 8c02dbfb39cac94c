package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/profiles"
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
	t.Parallel()
	cases := []platformCase{
		{"yarn", "real/eventlog_4nodes_8cores_dynamic_alloc.zstd", "3.2.1", "2.12", "8", "yarn"},
		{"emr", "public/join_agg_on_yarn_eventlog.zstd", "3.3.0", "2.12", "8", "emr"},
		{"dataproc", "public/nds_q72_dataproc_2_2.zstd", "3.5.3", "2.12", "11", "dataproc"},
		{"databricks", "real/xgboost_eventlog.zstd", "3.2.1", "2.12", "8", "databricks"},
		{"local-spark4-scala213", "public/eventlog_v2_local-1766844910796/events_1_local-1766844910796", "4.2.0", "2.13", "17", "local"},
		{"databricks-cluster-json", "real/databricks-azure-cpu-00.json", "3.3.0", "2.12", "8", "databricks"},
	}
	// the stand-ins serve what the catalog resolves for each prod (prod's
	// Spark, Scala and Java are checked against the files' own below), and
	// the nearest stack for a Spark 2.4 EMR cluster
	deviating := "real/emr-cpu-00.json"
	var sparks, rapids []string
	files := []string{deviating}
	for _, c := range cases {
		files = append(files, c.file)
	}
	for _, f := range files {
		r := mirroredResolution(t, f)
		sparks, rapids = append(sparks, r.Spark), append(rapids, r.Rapids)
	}
	w := newWorld(t, standin.WithSpark(sparks...), standin.WithScala("2.12", "2.13"), standin.WithRapids(rapids...))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "prod/" + filepath.Base(tc.file)
			dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids\n    jupyter: false\n    gpu: optional\n",
				map[string]string{src: mirrorTestdata(t, tc.file)})
			r := w.must(t, dir, "mirror", src)
			for _, f := range []string{"spark", "scala", "java"} {
				if strings.Contains(r.Stdout, "deviates: "+f) {
					t.Errorf("mirror deviates from prod's %s:\n%s", f, r.Stdout)
				}
			}
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
	t.Run("emr-spark24-deviates", func(t *testing.T) {
		src := "prod/cluster.json"
		dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids\n    jupyter: false\n    gpu: optional\n",
			map[string]string{src: mirrorTestdata(t, deviating)})
		before := readFile(t, filepath.Join(dir, "devenv.yaml"))
		r := w.run(t, dir, "mirror", src)
		if r.Code != 5 || !strings.Contains(r.Stderr, "spark: prod 2.4.4 -> local 3.2.4") || !strings.Contains(r.Stderr, "--accept-deviation") {
			t.Fatalf("mirror of a Spark 2.4 prod: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
		}
		if readFile(t, filepath.Join(dir, "devenv.yaml")) != before {
			t.Fatal("a refused mirror changed devenv.yaml")
		}
		r = w.must(t, dir, "mirror", src, "--accept-deviation")
		if !strings.Contains(r.Stdout, "deviates: spark: prod 2.4.4 -> local 3.2.4 (no RAPIDS Accelerator release") {
			t.Errorf("mirror does not print the deviation:\n%s", r.Stdout)
		}
		lf, err := lock.Read(filepath.Join(dir, "devenv.lock"))
		if err != nil {
			t.Fatal(err)
		}
		if v := lf.Service("spark").Versions; v.Spark != "3.2.4" || v.Scala != "2.12" || v.Java != "8" {
			t.Fatalf("locked %+v, want 3.2.4 / 2.12 / 8 (Java 8 kept)", v)
		}
		if c := w.must(t, dir, "config"); !strings.Contains(c.Stdout, "deviates: from prod: spark: prod 2.4.4 -> local 3.2.4") {
			t.Errorf("config does not show the deviation:\n%s", c.Stdout)
		}
		d := w.run(t, dir, "diff")
		if d.Code != 5 || !strings.Contains(d.Stdout, "deviates from prod (devenv.lock): spark: prod 2.4.4 -> local 3.2.4") {
			t.Fatalf("diff: exit %d\n%s\n%s", d.Code, d.Stdout, d.Stderr)
		}
	})
}

// mirroredResolution is what the catalog resolves for a prod file.
func mirroredResolution(t *testing.T, file string) profiles.Resolved {
	t.Helper()
	prof, err := mirror.Import(filepath.Join("..", "internal", "mirror", "testdata", file), mirror.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return resolved(profiles.Request{Profile: profiles.SparkRapids, Prefer: lock.PreferOf(prof)})
}

// platformCase is one prod file and the versions it states.
type platformCase struct {
	name, file               string
	spark, scala, java, plat string
}

func hasKey(items []struct{ Key, Prod string }, key string) bool {
	for _, it := range items {
		if it.Key == key {
			return true
		}
	}
	return false
}
