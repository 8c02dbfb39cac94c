package app

import (
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
