package app

import (
	"strings"
	"testing"
)

func TestListJobs(t *testing.T) {
	p := New(testProject(t, twoServices), Options{})
	list, warnings, err := p.ListJobs()
	if err != nil || list == nil || len(list) != 0 || len(warnings) != 0 {
		t.Fatalf("empty queue: %v %v %v, want [] and no warnings", list, warnings, err)
	}
	if _, _, err := p.Submit(SubmitOptions{Service: "box", Shell: "true", NoRunner: true}); err != nil {
		t.Fatal(err)
	}
	list, warnings, err = p.ListJobs()
	if err != nil || len(list) != 1 {
		t.Fatalf("after submit: %v %v", list, err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "1 job(s) wait and no runner is running") {
		t.Errorf("warnings = %q, want one saying a job waits without a runner", warnings)
	}
}
