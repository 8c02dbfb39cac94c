package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
)

// failedLog is the prod event log of a GPU job that failed with
// GpuRetryOOM (internal/mirror/testdata/written/gpu_eventlog_failed),
// moved to the versions the stand-ins serve (Debian bookworm has no Java 8).
func failedLog(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("..", "internal", "mirror", "testdata", "written", "gpu_eventlog_failed"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.NewReplacer(`"Spark Version":"3.1.1"`, `"Spark Version":"`+sparkVersion+`"`,
		"21.06.0-SNAPSHOT", rapidsVersion, "21.06-SNAPSHOT", rapidsVersion, "cuda11", "cuda12",
		`"Java Version":"1.8.0_282 (Private Build)"`, `"Java Version":"17.0.13 (Debian)"`).Replace(string(b))
}

// TestReproComparesTheJobWithProd runs devenv repro on a prod log whose
// failure is a GPU out-of-memory: a job that fails the same way reproduces
// it (exit 0), a job that succeeds does not (exit 1, with the reason), and
// on a machine without a GPU the result says what cannot match.
func TestReproComparesTheJobWithProd(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids\n    jupyter: false\n    gpu: optional\n", map[string]string{
		"prod/eventlog": failedLog(t),
		"jobs/oom.sh":   "echo 'starting'\necho 'com.nvidia.spark.rapids.jni.GpuRetryOOM: GPU OutOfMemory: could not split inputs and retry' >&2\nexit 1\n",
		"jobs/ok.sh":    "echo 'all rows written'\n",
	})
	r := w.run(t, dir, "repro", "prod/eventlog", "--job", "jobs/oom.sh", "--json")
	if r.Code != 0 {
		t.Fatalf("repro of a job failing like prod: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	res := decode[app.ReproResult](t, r.Stdout)
	if !res.Reproduced || res.Prod.Signature != "gpu-oom" || res.Local == nil || res.Local.ExitCode != 1 {
		t.Fatalf("result %+v", res)
	}
	if y := readFile(t, filepath.Join(dir, "devenv.yaml")); !strings.Contains(y, "mirror: prod/eventlog") || !strings.Contains(y, "mirror_format: eventlog") {
		t.Errorf("repro did not record the mirror and its format in devenv.yaml:\n%s", y)
	}
	// The lock repro wrote is the one mirror writes: prod's versions.
	if lk := readFile(t, filepath.Join(dir, "devenv.lock")); !strings.Contains(lk, `"spark": "`+sparkVersion+`"`) || !strings.Contains(lk, `"rapids": "`+rapidsVersion+`"`) {
		t.Errorf("the lock does not hold prod's spark %s and rapids %s:\n%s", sparkVersion, rapidsVersion, lk)
	}
	if !strings.Contains(r.Stderr, "GpuRetryOOM") {
		t.Errorf("the job's output was not shown:\n%s", r.Stderr)
	}
	r = w.run(t, dir, "repro", "prod/eventlog", "--job", "jobs/ok.sh")
	if r.Code != 1 || !strings.Contains(r.Stdout, "NOT REPRODUCED") || !strings.Contains(r.Stdout, "succeeds here; prod failed with gpu-oom") {
		t.Fatalf("repro of a job that succeeds: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	t.Logf("devenv repro, a job that succeeds:\n%s", r.Stdout)
	if len(res.CannotMatch) == 0 {
		t.Errorf("no word on what this machine cannot match (prod: 1 GPU per executor): %+v", res)
	}
}
