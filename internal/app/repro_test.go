package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/mirror"
)

func TestReproVerdict(t *testing.T) {
	oom := mirror.Failure{Kind: mirror.FailTask, Reason: "GpuRetryOOM", Count: 3, Signature: "gpu-oom", Meaning: "GPU out of memory"}
	job := mirror.Failure{Kind: mirror.FailJob, Reason: "Job aborted", Count: 1, Signature: "gpu-oom"}
	plain := mirror.Failure{Kind: mirror.FailTask, Reason: "ArithmeticException: / by zero", Count: 1}
	fallback := mirror.Failure{Kind: mirror.FailGPUFallback, Reason: "!Exec <Sort> cannot run on GPU", Signature: "gpu-fallback"}
	cases := []struct {
		name      string
		prod      []mirror.Failure
		local     *LocalOutcome
		want      bool
		reasonHas string
	}{
		{"same signature", []mirror.Failure{job, oom}, &LocalOutcome{ExitCode: 1, Signatures: []string{"gpu-oom"}}, true, "prod's signature gpu-oom"},
		{"other signature", []mirror.Failure{job, oom}, &LocalOutcome{ExitCode: 1, Signatures: []string{"driver-mismatch"}}, false, "driver-mismatch, not prod's gpu-oom"},
		{"fails without signature", []mirror.Failure{oom}, &LocalOutcome{ExitCode: 2}, false, "no known signature"},
		{"succeeds", []mirror.Failure{oom}, &LocalOutcome{}, false, "succeeds here"},
		{"unclassified prod, fails here", []mirror.Failure{plain}, &LocalOutcome{ExitCode: 1}, true, "only the failing is compared"},
		{"unclassified prod, succeeds", []mirror.Failure{plain}, &LocalOutcome{}, false, "succeeds here"},
		{"only fallbacks in prod", []mirror.Failure{fallback}, &LocalOutcome{ExitCode: 1}, false, "no failed job"},
		{"no job", []mirror.Failure{oom}, nil, false, "no --job"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			prod := prodOutcome(&mirror.Profile{Failures: tc.prod})
			got, reason := verdict(prod, tc.local, "job.py")
			if got != tc.want || !strings.Contains(reason, tc.reasonHas) {
				t.Errorf("verdict = %v, %q; want %v and %q", got, reason, tc.want, tc.reasonHas)
			}
		})
	}
	if p := prodOutcome(&mirror.Profile{Failures: []mirror.Failure{job, oom}}); p.Failure.Kind != mirror.FailTask {
		t.Errorf("main failure %+v, want the task's own exception", p.Failure)
	}
}

// TestReproReadsARealGPUOOMLog: the prod side of repro on a real GPU
// out-of-memory event log (spark-rapids-tools' gpu_oom_eventlog): the
// failure to reproduce is the tasks' GpuSplitAndRetryOOM, signature
// gpu-oom, and mirroring it for repro records the format and locks the
// service from the same lock path as devenv mirror.
func TestReproReadsARealGPUOOMLog(t *testing.T) {
	log, err := os.ReadFile(filepath.Join("..", "mirror", "testdata", "real", "gpu_oom_eventlog.zstd"))
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, optionalSpark, map[string]string{"prod/gpu_oom_eventlog.zstd": string(log)})
	src := filepath.Join(w.dir, "prod", "gpu_oom_eventlog.zstd")
	res, err := w.open(t).Mirror(t.Context(), MirrorOptions{Source: src, Format: mirror.FormatEventLog, Full: true})
	if err != nil {
		t.Fatal(err)
	}
	prod := prodOutcome(res.Profile)
	if !prod.Failed || prod.Signature != "gpu-oom" || prod.Failure.Kind != mirror.FailTask || !strings.Contains(prod.Failure.Reason, "GpuSplitAndRetryOOM") {
		t.Fatalf("prod outcome %+v", prod)
	}
	yaml, _ := os.ReadFile(filepath.Join(w.dir, "devenv.yaml"))
	if !strings.Contains(string(yaml), "mirror_format: eventlog") {
		t.Errorf("repro's mirror did not record the format:\n%s", yaml)
	}
	lk, err := w.open(t).ReadLock()
	if err != nil {
		t.Fatal(err)
	}
	if got := lk.Service("spark"); got == nil || got.Inputs == nil || got.Inputs.MirrorFormat != "eventlog" {
		t.Errorf("the lock was not written from the mirror with its format: %+v", got)
	}
	// The catalog builds prod's exact stack, so the lock takes it, not the newest.
	v := res.Locked.Versions
	if v.Spark != "3.3.1" || v.Rapids != "25.02.0" || v.Java != "8" || v.Scala != "2.12" || v.JarClassifier != "cuda11" {
		t.Errorf("the lock has %+v, want prod's spark 3.3.1, rapids 25.02.0 (cuda11), java 8, scala 2.12 (notes %q)", v, res.Notes)
	}
}
