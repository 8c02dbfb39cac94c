package app

import (
	"testing"

	"github.com/devenv-dev/devenv/internal/doctor"
)

func TestFailedChecksCountsOnlyFailures(t *testing.T) {
	r := doctor.Report{Checks: []doctor.Check{{Status: doctor.Pass}, {Status: doctor.Fail}, {Status: doctor.Warn}, {Status: doctor.Fail}}}
	if got := FailedChecks(r); got != 2 {
		t.Errorf("FailedChecks = %d, want 2", got)
	}
	if got := FailedChecks(doctor.Report{}); got != 0 {
		t.Errorf("an empty report: FailedChecks = %d", got)
	}
}
