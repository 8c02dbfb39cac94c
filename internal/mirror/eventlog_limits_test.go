package mirror

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// peakHeap runs f and returns the largest heap in use seen while it ran,
// sampled every 2 ms, above what was in use before, in MB.
func peakHeap(f func()) float64 {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return float64(peak.Load()-min(peak.Load(), base.HeapInuse)) / (1 << 20)
}

func TestZstdWindow(t *testing.T) {
	path := filepath.Join("testdata", "written", "xgboost_eventlog_window128m.zstd")
	cases := []struct {
		name    string
		window  int
		env     string   // DEVENV_MAX_WINDOW_MB, which lock and up read
		errHas  []string // in this order, at the start of the message
		maxHeap float64
	}{
		{"default accepts a 128 MiB window", 0, "", nil, 200},
		{"a lower limit names the window first", 64, "", []string{"cannot decompress", "128 MiB window", "--max-window 128", "DEVENV_MAX_WINDOW_MB=128"}, 0},
		{"DEVENV_MAX_WINDOW_MB lowers it where no flag is given", 0, "64", []string{"cannot decompress", "128 MiB window", "DEVENV_MAX_WINDOW_MB=128"}, 0},
		{"the flag wins over DEVENV_MAX_WINDOW_MB", 128, "64", nil, 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DEVENV_MAX_WINDOW_MB", tc.env)
			var p *Profile
			var err error
			heap := peakHeap(func() { p, err = Import(path, Options{MaxWindowMB: tc.window, Full: true}) })
			if tc.errHas == nil {
				if err != nil {
					t.Fatal(err)
				}
				eq(t, "platform", p.Source.Platform, "databricks")
				if heap > tc.maxHeap {
					t.Errorf("peak heap %.0f MB, want < %.0f", heap, tc.maxHeap)
				}
				return
			}
			if err == nil {
				t.Fatal("window over the limit accepted")
			}
			msg, at := err.Error(), 0
			for _, w := range tc.errHas {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("err %q lacks %q after position %d", msg, w, at)
				}
				at += i
			}
			if strings.Contains(msg, "not a Spark event log") {
				t.Errorf("err blames the content: %s", msg)
			}
		})
	}
}

func TestCheckLZ4Frame(t *testing.T) {
	good := lz4Frame(t, []byte("x\n"))
	bad := append([]byte{}, good...)
	bad[5] = 0x10 // block size code 1
	oldVersion := append([]byte{}, good...)
	oldVersion[4] &^= 0xc0
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{{"good", good, ""}, {"block size", bad, "block size code 1"}, {"version", oldVersion, "version 0"}} {
		err := checkLZ4Frame(tc.data)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// repeatReader streams n copies of b.
type repeatReader struct {
	b    []byte
	n, i int64
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.i >= r.n {
		return 0, io.EOF
	}
	k := copy(p, r.b[r.off:])
	r.off += k
	if r.off == len(r.b) {
		r.off, r.i = 0, r.i+1
	}
	return k, nil
}

// propsReader streams n distinct `"spark.custom.keyN":"value N",` entries.
type propsReader struct {
	n, i int
	buf  []byte
}

func (r *propsReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.i >= r.n {
			return 0, io.EOF
		}
		r.buf = fmt.Appendf(r.buf[:0], `"spark.custom.key%d":"value %d",`, r.i, r.i)
		r.i++
	}
	k := copy(p, r.buf)
	r.buf = r.buf[k:]
	return k, nil
}

func streamSource(name string, parts ...io.Reader) logSource {
	return logSource{name: name, open: func() (io.ReadCloser, error) { return io.NopCloser(io.MultiReader(parts...)), nil }}
}

// TestEventLogMemoryBounds: hostile logs stay under the README's 100 MB
// (200 MB with a 128 MiB zstd window) and say what was left out.
func TestEventLogMemoryBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("reads about 1.3 GB")
	}
	plain := readFixture(t, "real/gpu_eventlog")
	head := plain[:bytes.Index(plain, []byte(`{"Event":"SparkListenerTaskStart"`))]
	props := func(n int) io.Reader {
		return io.MultiReader(strings.NewReader(`{"Event":"SparkListenerEnvironmentUpdate","JVM Information":{"Java Version":"1.8.0_282 (Oracle)"},"Spark Properties":{`),
			&propsReader{n: n}, strings.NewReader(`"spark.last":"1"},"Classpath Entries":{}}`+"\n"))
	}
	cases := []struct {
		name    string
		src     logSource
		maxHeap float64
		warn    string
	}{
		{"1 GB single line", streamSource("line", bytes.NewReader(head), strings.NewReader(`{"Event":"SparkListenerExecutorAdded","x":"`),
			&repeatReader{b: bytes.Repeat([]byte("a"), 1<<20), n: 1 << 10}, strings.NewReader("\"}\n")), 100, "longer than 32 MB"},
		{"zstd bomb", logSource{name: "bomb", open: func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(readFixture(t, "written/bomb-4g.zstd"))), nil
		}}, 200, "decompression bomb"},
		{"1 million properties", streamSource("props", strings.NewReader(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}`+"\n"), props(1_000_000)), 100, "entries past that"},
		{"2 million properties", streamSource("props2", strings.NewReader(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}`+"\n"), props(2_000_000)), 100, "entries past that"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var p *Profile
			var err error
			heap := peakHeap(func() { p, err = readEventLog(tc.name, []logSource{tc.src}, Options{Full: true}) })
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("peak heap %.1f MB", heap)
			if heap > tc.maxHeap {
				t.Errorf("peak heap %.0f MB, want < %.0f", heap, tc.maxHeap)
			}
			if w := strings.Join(p.Warnings, "\n"); !strings.Contains(w, tc.warn) {
				t.Errorf("warnings %q lack %q", w, tc.warn)
			}
		})
	}
}

func TestDecodeEnvCaps(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"Event":"SparkListenerEnvironmentUpdate","Other":{"a":[1,{"b":2}]},"Spark Properties":{`)
	for i := 0; i < maxProps+5; i++ {
		fmt.Fprintf(&b, `"k%d":"v",`, i)
	}
	b.WriteString(`"nested":{"x":"y"},"last":"z"},"System Properties":null}`)
	e, capped, err := decodeEnv([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "kept", len(e.Spark), maxProps)
	eq(t, "capped", capped, true)
	eq(t, "first", str(e.Spark["k0"]), "v")
}

func lz4Frame(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	w := lz4.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFramings: every framing a writer may use reads like the plain log;
// a later zstd frame over the window limit is named as the cause.
func TestFramings(t *testing.T) {
	plain := readFixture(t, "real/gpu_eventlog")
	half := bytes.IndexByte(plain[len(plain)/2:], '\n') + len(plain)/2 + 1
	want, err := Import(writeTemp(t, "plain", plain), Options{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	big := readFixture(t, "written/xgboost_eventlog_window128m.zstd") // a 128 MiB window frame
	cases := []struct {
		name, file string
		data       []byte
		window     int
		warnHas    string
	}{
		{"lz4 frames concatenated", "a.lz4", append(lz4Frame(t, plain[:half]), lz4Frame(t, plain[half:])...), 0, ""},
		{"snappy framed", "a.snappy", framedSnappy(plain), 0, ""},
		{"snappy-java streams concatenated", "a.snappy", append(snappyJava(plain[:half]), snappyJava(plain[half:])...), 0, ""},
		{"zstd: second frame over the window", "a.zstd", append(zstdFrame(t, plain), big...), 64, "window larger than the 64 MiB this reader allows"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Import(writeTemp(t, tc.file, tc.data), Options{Full: true, MaxWindowMB: tc.window})
			if err != nil {
				t.Fatal(err)
			}
			eq(t, "failures", len(p.Failures), len(want.Failures))
			eq(t, "spark", p.Runtime.Spark, want.Runtime.Spark)
			w := strings.Join(p.Warnings, "\n")
			if tc.warnHas == "" && w != "" || !strings.Contains(w, tc.warnHas) {
				t.Errorf("warnings %q, want %q", w, tc.warnHas)
			}
		})
	}
}

func zstdFrame(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	enc, err := zstd.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := enc.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestEnvEventHugeValue: an environment event holding one 512 MB value
// (a 32 KB zstd file expanded to 931 MB in issue 29, 1.1 GB of memory)
// is read without holding the value: peak heap under 64 MB, the value
// left out with a warning naming the event and the key, the other
// properties kept.
func TestEnvEventHugeValue(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 512 MB")
	}
	src := streamSource("huge", strings.NewReader(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}`+"\n"+
		`{"Event":"SparkListenerEnvironmentUpdate","JVM Information":{"Java Version":"17.0.9"},"Spark Properties":{"spark.executor.memory":"8g","spark.huge":"`),
		&repeatReader{b: bytes.Repeat([]byte(`a\"b`), 1<<18), n: 1 << 9},
		strings.NewReader(`","spark.sql.shuffle.partitions":"64"},"Classpath Entries":{}}`+"\n"))
	var p *Profile
	var err error
	heap := peakHeap(func() { p, err = readEventLog("huge", []logSource{src}, Options{Full: true}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("peak heap %.1f MB", heap)
	if heap > 64 {
		t.Errorf("peak heap %.0f MB, want < 64", heap)
	}
	w := strings.Join(p.Warnings, "\n")
	if !strings.Contains(w, "SparkListenerEnvironmentUpdate") || !strings.Contains(w, "spark.huge") {
		t.Errorf("warnings %q do not name the event and the key", w)
	}
	if got := p.Conf["spark.sql.shuffle.partitions"]; got != "64" {
		t.Errorf("spark.sql.shuffle.partitions = %q after the huge value, want 64 (conf %v)", got, len(p.Conf))
	}
}

// TestDecodeEnvPairs: a section written as Spark's REST API writes it,
// [["key","value"],...] (hand-made logs copy that shape, e.g.
// spark-history-server-rs's sample), reads as the object Spark writes; a
// pair with a nested value or a cut value is left out as in an object.
func TestDecodeEnvPairs(t *testing.T) {
	line := `{"Event":"SparkListenerEnvironmentUpdate","JVM Information":{"Java Version":"17.0.8"},` +
		`"Spark Properties":[["spark.master","local[*]"],["spark.sql.adaptive.enabled","true"],["odd",{"a":1}],["spark.x","1","extra"]],` +
		`"Classpath Entries":[]}`
	e, capped, err := decodeEnv([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "capped", capped, false)
	eq(t, "props", len(e.Spark), 3)
	eq(t, "master", str(e.Spark["spark.master"]), "local[*]")
	eq(t, "aqe", str(e.Spark["spark.sql.adaptive.enabled"]), "true")
	eq(t, "extra", str(e.Spark["spark.x"]), "1")
	eq(t, "java", str(e.JVM["Java Version"]), "17.0.8")
}
