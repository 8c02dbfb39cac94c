package mirror

import "testing"

func TestPortableFamilyOf(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"spark.scheduler.mode", "scheduling"},
		{"spark.scheduler.barrier.maxConcurrentTasksCheck.maxFailures", "barrier scheduling"},
		{"spark.scheduler.barrier.maxConcurrentTasksCheck.interval", "barrier scheduling"},
		{"spark.scheduler.minRegisteredResourcesRatio", ""},
		{"spark.scheduler.modeX", ""},
		{"spark.sql.shuffle.partitions", "Spark SQL semantics"},
		{"spark.yarn.queue", ""},
		{"spark.hadoop.mapreduce.input.fileinputformat.input.dir.recursive", "input semantics"},
		{"spark.hadoop.mapreduce.input.fileinputformat.split.minsize", "input semantics"},
		{"spark.hadoop.mapreduce.jobtracker.address", ""},
	} {
		if got := portableFamilyOf(tc.key); got != tc.want {
			t.Errorf("portableFamilyOf(%s) = %q, want %q", tc.key, got, tc.want)
		}
	}
}
