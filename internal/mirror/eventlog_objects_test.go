package mirror

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestSmallZstdLogStaysInMemoryBound: a zstd log of about 32 KB whose
// lines are events of millions of empty objects (28 MB each, well under
// the 32 MB line limit) used to take about 1 GB of heap to decode; it must
// stay under the README's 100 MB, say what it skipped, and still read the
// rest of the log.
func TestSmallZstdLogStaysInMemoryBound(t *testing.T) {
	start := `{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}` + "\n"
	events := []struct{ name, line string }{
		{"plan of empty children", `{"Event":"` + evSQLStart + `","executionId":1,"sparkPlanInfo":{"nodeName":"GpuX","children":[` + strings.Repeat(`{},`, 9_000_000) + `{}]}}`},
		{"adaptive plan of empty children", `{"Event":"` + evSQLAdaptive + `","executionId":2,"sparkPlanInfo":{"nodeName":"GpuX","children":[` + strings.Repeat(`{"nodeName":"Gpu","children":[]},`, 700_000) + `{}]}}`},
		{"failed task with empty arrays", `{"Event":"SparkListenerTaskEnd","Stage ID":1,"Task End Reason":{"Reason":"ExceptionFailure","Class Name":[` + strings.Repeat(`[],`, 9_000_000) + `[]]}}`},
		{"executor added with empty objects", `{"Event":"SparkListenerExecutorAdded","Executor ID":"1","Executor Info":{"Host":"h","Resources":{"gpu":[` + strings.Repeat(`{},`, 9_000_000) + `{}]}}}`},
	}
	var plain strings.Builder
	plain.WriteString(start)
	for _, e := range events {
		plain.WriteString(e.line + "\n")
	}
	z := zstdFrame(t, []byte(plain.String()))
	if len(z) > 64<<10 {
		t.Fatalf("the compressed log is %d KB; this test is about small ones", len(z)>>10)
	}
	src := logSource{name: "small.zstd", open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(z)), nil }}
	var p *Profile
	var err error
	heap := peakHeap(func() { p, err = readEventLog("small.zstd", []logSource{src}, Options{Full: true}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d MB of events in %d KB of zstd: peak heap %.0f MB", plain.Len()>>20, len(z)>>10, heap)
	if heap > 100 {
		t.Errorf("peak heap %.0f MB, want < 100 (README)", heap)
	}
	if p.Runtime.Spark != "3.5.1" {
		t.Errorf("Spark version %q: the log's other events were not read", p.Runtime.Spark)
	}
	if w := strings.Join(p.Warnings, "\n"); !strings.Contains(w, "with more than 200000 JSON objects were skipped") {
		t.Errorf("warnings %q do not say what was skipped", w)
	}
}

func TestTooManyObjectsCountsOutsideStrings(t *testing.T) {
	inString := `{"a":"` + strings.Repeat("{[", maxEventObjects) + `"}`
	if tooManyObjects([]byte(inString)) {
		t.Error("brackets inside a string were counted")
	}
	escaped := `{"a":"\"` + strings.Repeat("{", maxEventObjects) + `"}`
	if tooManyObjects([]byte(escaped)) {
		t.Error("an escaped quote ended the string")
	}
	if !tooManyObjects([]byte(strings.Repeat("[", maxEventObjects+1))) {
		t.Error("one past the limit was not refused")
	}
}
