package mirror

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// syntheticLog streams an event log of size bytes: the real header of
// gpu_eventlog, one executor, then task events repeated. It generates the
// data on the fly, so a 1 GB log costs no disk and little memory.
type syntheticLog struct {
	head, body []byte
	size, off  int64
}

func newSyntheticLog(tb testing.TB, size int64) *syntheticLog {
	plain := readFixture(tb, "real/gpu_eventlog")
	var head, task []byte
	for _, line := range bytes.SplitAfter(plain, []byte("\n")) {
		switch {
		case bytes.Contains(line, []byte(`"Event":"SparkListenerTaskEnd"`)) && task == nil:
			task = line
		case bytes.Contains(line, []byte(`"Event":"SparkListenerTaskStart"`)), bytes.Contains(line, []byte(`"Event":"SparkListenerTaskEnd"`)):
		case len(head) < 40000:
			head = append(head, line...)
		}
	}
	exec := `{"Event":"SparkListenerExecutorAdded","Timestamp":1,"Executor ID":"1","Executor Info":{"Host":"w1","Total Cores":8,"Log Urls":{},"Attributes":{},"Resources":{"gpu":{"name":"gpu","addresses":["0"]}},"Resource Profile Id":0}}` + "\n"
	head = append(head, exec...)
	body := bytes.Repeat(task, (1<<20)/len(task)+1)
	// end on a line boundary
	size = int64(len(head)) + (size-int64(len(head)))/int64(len(task))*int64(len(task))
	return &syntheticLog{head: head, body: body, size: size}
}

func (s *syntheticLog) Read(p []byte) (int, error) {
	if s.off >= s.size {
		return 0, io.EOF
	}
	var n int
	if s.off < int64(len(s.head)) {
		n = copy(p, s.head[s.off:])
	} else {
		i := (s.off - int64(len(s.head))) % int64(len(s.body))
		// keep whole lines: body is whole task lines repeated
		n = copy(p, s.body[i:])
	}
	if rem := s.size - s.off; int64(n) > rem {
		n = int(rem)
	}
	s.off += int64(n)
	return n, nil
}

func (s *syntheticLog) source() logSource {
	return logSource{name: "synthetic", open: func() (io.ReadCloser, error) { return io.NopCloser(s), nil }}
}

func TestSyntheticLogIsReadable(t *testing.T) {
	p, err := readEventLog("synthetic", []logSource{newSyntheticLog(t, 8<<20).source()}, Options{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "spark", p.Runtime.Spark, "3.1.1")
	eq(t, "executors", p.Topology.Executors, 1)
	eq(t, "gpus", p.GPU.ExecutorGPUs, 1.0)
	for _, w := range p.Warnings {
		if strings.Contains(w, "not complete") {
			t.Errorf("synthetic log has broken lines: %s", w)
		}
	}
}

func BenchmarkEnvironmentEarlyStop(b *testing.B) {
	for _, size := range []int64{10 << 20, 1 << 30} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				log := newSyntheticLog(b, size)
				if _, err := readEventLog("synthetic", []logSource{log.source()}, Options{}); err != nil {
					b.Fatal(err)
				}
				if log.off >= log.size {
					b.Fatalf("early read consumed the whole %d MB log", size>>20)
				}
			}
		})
	}
}

// BenchmarkFullScan scans a generated 1 GB log and reports MB/s (SetBytes)
// and the peak heap in use, sampled every 5 ms.
func BenchmarkFullScan(b *testing.B) {
	const size = 1 << 30
	b.SetBytes(size)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	for i := 0; i < b.N; i++ {
		log := newSyntheticLog(b, size)
		p, err := readEventLog("synthetic", []logSource{log.source()}, Options{Full: true})
		if err != nil {
			b.Fatal(err)
		}
		if p.Topology.Executors != 1 {
			b.Fatalf("executors = %d", p.Topology.Executors)
		}
	}
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
}

// BenchmarkFullScanZstd is BenchmarkFullScan on the same 1 GB log stored
// zstd-compressed, as Spark writes it with spark.eventLog.compress: MB/s
// counts decompressed JSON, so decompression is part of the figure.
func BenchmarkFullScanZstd(b *testing.B) {
	const size = 1 << 30
	var compressed bytes.Buffer
	enc, err := zstd.NewWriter(&compressed, zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(enc, newSyntheticLog(b, size)); err != nil {
		b.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		b.Fatal(err)
	}
	data := compressed.Bytes()
	src := logSource{name: "synthetic.zstd", open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := readEventLog("synthetic.zstd", []logSource{src}, Options{Full: true})
		if err != nil {
			b.Fatal(err)
		}
		if p.Topology.Executors != 1 {
			b.Fatalf("executors = %d", p.Topology.Executors)
		}
	}
	b.ReportMetric(float64(len(data))/(1<<20), "compressed-MB")
}
