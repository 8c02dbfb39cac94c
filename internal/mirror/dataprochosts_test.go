package mirror

import "testing"

func TestDataprocByHosts(t *testing.T) {
	hosts := func(h ...string) map[string]bool {
		m := map[string]bool{}
		for _, x := range h {
			m[x] = true
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		execs  map[string]bool
		driver string
		want   bool
	}{
		{"workers and master", hosts("dataproc-test-w-1.c.internal", "dataproc-test-w-2.c.internal"), "dataproc-test-m.c.internal", true},
		{"project domain, HA master", hosts("etl-w-0.c.my-proj.internal"), "etl-m-1.c.my-proj.internal", true},
		{"secondary workers, no driver host", hosts("etl-sw-x1b2.c.p.internal", "etl-w-3.c.p.internal"), "", true},
		{"two clusters", hosts("a-w-0.c.p.internal", "b-w-0.c.p.internal"), "", false},
		{"driver elsewhere", hosts("etl-w-0.c.p.internal"), "laptop.local", false},
		{"driver of another cluster", hosts("etl-w-0.c.p.internal"), "other-m.c.p.internal", false},
		{"plain GCE hosts", hosts("instance-1.c.p.internal"), "", false},
		{"EC2 hosts", hosts("ip-10-0-0-1.ec2.internal"), "", false},
		{"no executors", hosts(), "etl-m.c.p.internal", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := dataprocByHosts(tc.execs, tc.driver); got != tc.want {
				t.Errorf("dataprocByHosts = %v, want %v", got, tc.want)
			}
		})
	}
}
