package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

func realFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "mirror", "testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const plainSpark = `name: demo
services:
  spark:
    profile: spark-rapids
    gpu: optional
    jupyter: false
`

// TestMirrorRefusesAChangedSparkLine: EMR 5.28 runs Spark 2.4.4 / Scala
// 2.11, which no RAPIDS Accelerator release builds: mirror exits 5 and
// writes nothing; with AcceptDeviation it locks the nearest (3.2.4 / 2.12,
// Java 8 kept) and the lock, config and diff all carry the reasons.
func TestMirrorRefusesAChangedSparkLine(t *testing.T) {
	w := newWorld(t, plainSpark, map[string]string{"prod/emr.json": realFile(t, "emr-cpu-00.json")})
	src := filepath.Join(w.dir, "prod", "emr.json")
	before, _ := os.ReadFile(filepath.Join(w.dir, "devenv.yaml"))
	_, err := w.open(t).Mirror(t.Context(), MirrorOptions{Source: src})
	if err == nil || ExitCode(err) != exitcode.Drift || !strings.Contains(err.Error(), "Spark 2.4") || !strings.Contains(err.Error(), "--accept-deviation") {
		t.Fatalf("mirror of a Spark 2.4 prod: err %v (exit %d), want exit 5 naming Spark 2.4 and --accept-deviation", err, ExitCode(err))
	}
	after, _ := os.ReadFile(filepath.Join(w.dir, "devenv.yaml"))
	if string(after) != string(before) {
		t.Errorf("refused mirror changed devenv.yaml")
	}
	if _, err := os.Stat(filepath.Join(w.dir, lock.FileName)); !os.IsNotExist(err) {
		t.Errorf("refused mirror wrote devenv.lock")
	}

	res, err := w.open(t).Mirror(t.Context(), MirrorOptions{Source: src, AcceptDeviation: true})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Locked.Versions
	if v.Spark != "3.2.4" || v.Scala != "2.12" || v.Java != "8" {
		t.Errorf("locked %+v, want the nearest: spark 3.2.4, scala 2.12, java 8 (prod's)", v)
	}
	fields := map[string]string{}
	for _, d := range res.Deviations {
		fields[d.Field] = d.Prod + "->" + d.Local + ": " + d.Why
	}
	if !strings.HasPrefix(fields["spark"], "2.4.4->3.2.4: no RAPIDS Accelerator release") || !strings.HasPrefix(fields["scala"], "2.11->2.12") || fields["java"] != "" {
		t.Errorf("deviations %v", fields)
	}
	lf, err := lock.Read(filepath.Join(w.dir, lock.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if got := lf.Service("spark").Deviations; len(got) != len(res.Deviations) {
		t.Errorf("devenv.lock keeps %d deviations, mirror printed %d", len(got), len(res.Deviations))
	}
	cfg, err := w.open(t).Config(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cfg.Services[0].Resolved.Deviations); n != len(res.Deviations) {
		t.Errorf("config shows %d deviations, want %d", n, len(res.Deviations))
	}
	diff, err := w.open(t).Diff(t.Context(), DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	why := ""
	for _, d := range diff.Items {
		if d.Kind == "version" && d.Key == "spark" {
			why = d.Why
		}
	}
	if len(diff.Deviations) != len(res.Deviations) || !strings.Contains(why, "Spark 2.4") {
		t.Errorf("diff: %d deviations, spark drift says %q", len(diff.Deviations), why)
	}
}

// TestMirrorKeepsProdsJava: a Java 8 / Spark 3.2.1 YARN prod is locked to
// exactly that (the old rule gave Java 17), and mirror succeeds.
func TestMirrorKeepsProdsJava(t *testing.T) {
	w := newWorld(t, plainSpark, map[string]string{})
	data, err := os.ReadFile(filepath.Join("..", "mirror", "testdata", "real", "eventlog_4nodes_8cores_dynamic_alloc.zstd"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(w.dir, "prod", "app.zstd")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := w.open(t).Mirror(t.Context(), MirrorOptions{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Locked.Versions; v.Spark != "3.2.1" || v.Scala != "2.12" || v.Java != "8" || len(res.Deviations) != 0 {
		t.Errorf("locked %+v with deviations %+v, want prod's spark 3.2.1, scala 2.12, java 8 exactly", v, res.Deviations)
	}
}

// TestExplainNeverCreditsComputedValuesToProd: keys devenv sizes name
// prod's own value (64g), never the scaled one, and the ones prod does
// not set say so; a mirrored spark.task.cpus above the local executor
// cores is lowered, saying from what.
func TestExplainNeverCreditsComputedValuesToProd(t *testing.T) {
	prod := "spark.executor.memory 64g\nspark.executor.cores 16\nspark.task.cpus 12\nspark.sql.shuffle.partitions 400\n"
	w := newWorld(t, optionalSpark, map[string]string{"prod/spark-defaults.conf": prod})
	if _, err := w.open(t).Mirror(t.Context(), MirrorOptions{Source: filepath.Join(w.dir, "prod", "spark-defaults.conf")}); err != nil {
		t.Fatal(err)
	}
	exp, err := w.open(t).Explain(t.Context(), "spark")
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]string{}
	values := map[string]string{}
	for _, e := range exp.Conf {
		rules[e.Key], values[e.Key] = e.Rule, e.Value
	}
	if !strings.Contains(rules["spark.executor.memory"], "spark.executor.memory=64g from prod/spark-defaults.conf not used") {
		t.Errorf("executor memory rule: %s", rules["spark.executor.memory"])
	}
	if !strings.Contains(rules["spark.driver.memory"], "prod/spark-defaults.conf does not set it") {
		t.Errorf("driver memory rule (prod does not set it): %s", rules["spark.driver.memory"])
	}
	if c := values["spark.executor.cores"]; values["spark.task.cpus"] != c || !strings.Contains(rules["spark.task.cpus"], "lowered from 12") {
		t.Errorf("task.cpus %s (%s) with executor cores %s", values["spark.task.cpus"], rules["spark.task.cpus"], c)
	}
	if values["spark.sql.shuffle.partitions"] != "64" {
		t.Errorf("devenv.yaml's conf must still win: %s", values["spark.sql.shuffle.partitions"])
	}
}
