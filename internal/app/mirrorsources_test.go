package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/mirror"
)

// rollingLog is a real rolling event log directory (spark-rapids-tools'
// eventlog_v2_local-1623876083964: two zstd parts and appstatus).
func rollingLog(t *testing.T) map[string]string {
	t.Helper()
	src := filepath.Join("..", "mirror", "testdata", "real", "eventlog_v2_local-1623876083964")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files["prod/eventlog_v2_local-1623876083964/"+e.Name()] = string(data)
	}
	return files
}

// TestRollingEventLogWorksEverywhere: an eventlog_v2_* directory is a
// mirror: source for mirror, lock, config, the plan up runs, diff, and a file added to
// it makes the lock stale.
func TestRollingEventLogWorksEverywhere(t *testing.T) {
	w := newWorld(t, optionalSpark, rollingLog(t))
	ctx := t.Context()
	dir := filepath.Join(w.dir, "prod", "eventlog_v2_local-1623876083964")
	// prod's Spark 3.1.1 has no RAPIDS release: the nearest line is accepted here
	res, err := w.open(t).Mirror(ctx, MirrorOptions{Source: dir, AcceptDeviation: true})
	if err != nil {
		t.Fatalf("mirror: %v", err)
	}
	if res.Source != "prod/eventlog_v2_local-1623876083964" || res.Profile.Runtime.Spark != "3.1.1" {
		t.Fatalf("mirror recorded %q, spark %q", res.Source, res.Profile.Runtime.Spark)
	}
	if st, err := w.open(t).Lock(ctx, LockOptions{Check: true}); err != nil {
		t.Fatalf("lock --check after mirror: %v (%+v)", err, st)
	}
	if _, err := w.open(t).Config(ctx, nil); err != nil {
		t.Fatalf("config: %v", err)
	}
	if pl, err := w.open(t).Plan(ctx, PlanOptions{}); err != nil || pl.Service("spark") == nil {
		t.Fatalf("the plan up runs: %v", err)
	}
	if _, err := w.open(t).Diff(ctx, DiffOptions{}); err != nil {
		t.Fatalf("diff: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "events_3_local-1623876083964"), []byte(`{"Event":"SparkListenerApplicationEnd","Timestamp":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := w.open(t).Lock(ctx, LockOptions{Check: true}); err == nil || !strings.Contains(err.Error(), "mirrors changed") {
		t.Errorf("lock --check after the log rolled over: %v, want stale", err)
	}
}

// TestForcedFormatIsKept: devenv mirror --format records mirror_format:,
// so lock, up and diff read the source the same way; mirroring another
// source without it removes it.
func TestForcedFormatIsKept(t *testing.T) {
	conf := "# exported from the cluster\nhadoop.tmp.dir /tmp\nyarn.nodemanager.x 1\nio.file.buffer.size 65536\nspark.executor.memory 8g\n"
	w := newWorld(t, optionalSpark, map[string]string{"prod/exported.txt": conf, "prod/spark-defaults.conf": "spark.executor.cores 4\n"})
	ctx := t.Context()
	src := filepath.Join(w.dir, "prod", "exported.txt")
	if _, err := mirror.Import(src, mirror.Options{}); err == nil {
		t.Fatal("the test file is detected without --format; it must need the forced format")
	}
	if _, err := w.open(t).Mirror(ctx, MirrorOptions{Source: src, Format: mirror.FormatSparkDefaults}); err != nil {
		t.Fatalf("mirror --format: %v", err)
	}
	yaml, _ := os.ReadFile(filepath.Join(w.dir, "devenv.yaml"))
	if !strings.Contains(string(yaml), "mirror_format: spark-defaults") {
		t.Fatalf("devenv.yaml does not keep the format:\n%s", yaml)
	}
	if pl, err := w.open(t).Plan(ctx, PlanOptions{}); err != nil || pl.Service("spark") == nil {
		t.Fatalf("the plan up runs: %v", err)
	}
	d, err := w.open(t).Diff(ctx, DiffOptions{})
	if err != nil {
		t.Fatalf("diff: %v", err)
	}
	if d == nil {
		t.Fatal("no diff result")
	}
	if _, err := w.open(t).Mirror(ctx, MirrorOptions{Source: filepath.Join(w.dir, "prod", "spark-defaults.conf")}); err != nil {
		t.Fatal(err)
	}
	yaml, _ = os.ReadFile(filepath.Join(w.dir, "devenv.yaml"))
	if strings.Contains(string(yaml), "mirror_format") {
		t.Errorf("mirroring a detected source kept the old format:\n%s", yaml)
	}
}
