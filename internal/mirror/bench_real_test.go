package mirror

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// realBody is 64 MB of events taken from every real fixture log (tasks,
// stages, jobs, SQL plans and metrics, block managers), in the order the
// logs hold them, with task, stage and job ids and timestamps renumbered on
// each pass so no two passes are byte-identical. Environment, log start and
// executor events are left out: a log has one of each, in its header.
func realBody(tb testing.TB) []byte {
	var pool [][]byte
	for _, name := range []string{"real/eventlog_4nodes_8cores_dynamic_alloc.zstd", "real/rapids_join_eventlog.zstd",
		"real/xgboost_eventlog.zstd", "real/malformed_json_eventlog.zstd", "real/eventlog-gpu-dsv1.zstd", "real/spark2-eventlog.zstd"} {
		r, _, closeDec, err := decompress(bufio.NewReader(bytes.NewReader(readFixture(tb, name))), limits{})
		if err != nil {
			tb.Fatal(err)
		}
		data, _ := io.ReadAll(r)
		closeDec()
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			name := eventName(line)
			if len(line) < 2 || !looksComplete(line) || name == nil || decoded[string(name)] {
				continue
			}
			pool = append(pool, line)
		}
	}
	var body []byte
	for pass := 0; len(body) < 64<<20; pass++ {
		for _, line := range pool {
			body = append(body, renumber(line, pass)...)
		}
	}
	return body
}

var idKeys = [][]byte{[]byte(`"Task ID":`), []byte(`"Stage ID":`), []byte(`"Job ID":`), []byte(`"Timestamp":`), []byte(`"Launch Time":`)}

// renumber adds pass*100000 to the numbers after idKeys.
func renumber(line []byte, pass int) []byte {
	out := make([]byte, 0, len(line)+16)
	for len(line) > 0 {
		at, key := -1, []byte(nil)
		for _, k := range idKeys {
			if i := bytes.Index(line, k); i >= 0 && (at < 0 || i < at) {
				at, key = i, k
			}
		}
		if at < 0 {
			return append(out, line...)
		}
		out = append(out, line[:at+len(key)]...)
		line = line[at+len(key):]
		j := 0
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		n, _ := strconv.ParseInt(string(line[:j]), 10, 64)
		out = strconv.AppendInt(out, n+int64(pass)*100000, 10)
		line = line[j:]
	}
	return out
}

// realLog streams size bytes: the header of gpu_eventlog (environment and
// executor), then realBody repeated.
func realLog(tb testing.TB, size int64) io.Reader {
	syn := newSyntheticLog(tb, 1<<20)
	body := realBody(tb)
	n := (size - int64(len(syn.head))) / int64(len(body))
	parts := []io.Reader{bytes.NewReader(syn.head)}
	for i := int64(0); i < n; i++ {
		parts = append(parts, bytes.NewReader(body))
	}
	if rest := size - int64(len(syn.head)) - n*int64(len(body)); rest > 0 {
		cut := body[:rest]
		cut = cut[:bytes.LastIndexByte(cut, '\n')+1]
		parts = append(parts, bytes.NewReader(cut))
	}
	return io.MultiReader(parts...)
}

// BenchmarkFullScanReal is the full scan on a 1 GB log of real events with
// their variety (SQL plans, metrics, task ends of six applications), plain
// and zstd-compressed at Spark's default level, with the peak heap.
func BenchmarkFullScanReal(b *testing.B) {
	const size = 1 << 30
	plain, err := io.ReadAll(realLog(b, size))
	if err != nil {
		b.Fatal(err)
	}
	var zbuf bytes.Buffer
	enc, _ := zstd.NewWriter(&zbuf, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if _, err := enc.Write(plain); err != nil {
		b.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{{"plain", plain}, {"zstd", zbuf.Bytes()}} {
		b.Run(tc.name, func(b *testing.B) {
			src := logSource{name: tc.name, open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(tc.data)), nil }}
			b.SetBytes(int64(len(plain)))
			var heap float64
			for i := 0; i < b.N; i++ {
				heap = max(heap, peakHeap(func() {
					p, err := readEventLog(tc.name, []logSource{src}, Options{Full: true})
					if err != nil || p.Topology.Executors < 1 {
						b.Fatalf("err %v", err)
					}
				}))
			}
			b.ReportMetric(heap, "peak-heap-MB")
			b.ReportMetric(float64(len(tc.data))/(1<<20), "input-MB")
		})
	}
}
