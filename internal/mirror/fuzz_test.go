package mirror

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// addSeeds adds the named fixtures, each cut to its first 2 KB and whole
// when small: small seeds keep minimisation quick.
func addSeeds(f *testing.F, names ...string) {
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("testdata", n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 2048)])
		if len(data) <= 8192 {
			f.Add(data)
		}
	}
}

// fuzzFormat fuzzes one importer: it must not panic, and what it accepts
// must derive, localize and classify without panicking either.
func fuzzFormat(f *testing.F, format string, seeds ...string) {
	addSeeds(f, seeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := importBytes("fuzz", format, data)
		if err != nil {
			return
		}
		p.deriveFromConf()
		p.finish()
		p.Localize(Host{CPUs: 4, MemoryMB: 8192, GPUs: 1})
		_ = detectBytes(data)
	})
}

func FuzzDatabricks(f *testing.F) {
	fuzzFormat(f, FormatDatabricks, "real/databricks-aws-cpu-00.json", "written/databricks-gpu-job.json")
}

func FuzzEMR(f *testing.F) {
	fuzzFormat(f, FormatEMR, "real/emr-cpu-00.json", "written/emr-describe-gpu.json")
}

func FuzzEMRConfigurations(f *testing.F) {
	fuzzFormat(f, FormatEMRConfigurations, "written/emr-configurations-gpu.json")
}

func FuzzDataproc(f *testing.F) {
	fuzzFormat(f, FormatDataproc, "real/dataproc-gke-cpu-00.yaml", "written/dataproc-gpu.yaml")
}

func FuzzSparkOperator(f *testing.F) {
	fuzzFormat(f, FormatSparkOperator, "written/sparkapp-gpu.yaml")
}

func FuzzSparkDefaults(f *testing.F) {
	fuzzFormat(f, FormatSparkDefaults, "written/spark-defaults.conf")
}

func FuzzSparkSubmit(f *testing.F) {
	fuzzFormat(f, FormatSparkSubmit, "written/spark-submit.sh")
}

func FuzzToolsCluster(f *testing.F) {
	fuzzFormat(f, FormatToolsCluster, "real/worker_info.yaml", "real/targetCluster01.yaml", "real/onprem-cpu-00.yaml")
}

func FuzzEventLog(f *testing.F) {
	addSeeds(f, "real/gpu_eventlog", "written/gpu_eventlog_failed")
	f.Add([]byte(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}` + "\n" + `{"Event":"SparkListenerExecutorAdded","Executor ID":"1","Executor Info":{"Host":"h","Resources":{"gpu":{"addresses":["0"]}}}}`))
	f.Add(snappyJava([]byte(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}`)))
	f.Add(lz4Block([]byte(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := logSource{name: "fuzz", open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
		if p, err := readEventLog("fuzz", []logSource{src}, Options{Full: true}); err == nil {
			p.Localize(Host{CPUs: 2, MemoryMB: 4096})
		}
	})
}

func FuzzDecompress(f *testing.F) {
	addSeeds(f, "real/eventlog-gpu-dsv1.zstd", "real/spark2-eventlog.zstd", "written/gpu_eventlog_zstd_named.lz4")
	f.Add(snappyJava([]byte("hello\n")))
	f.Add(lz4Block([]byte("hello\n")))
	f.Add(framedSnappy([]byte("hello\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, _, closeDec, err := decompress(bufio.NewReader(bytes.NewReader(data)), limits{})
		if err != nil {
			return
		}
		defer closeDec()
		_, _ = io.Copy(io.Discard, io.LimitReader(r, 64<<20)) // the target only must not panic or hang
		_ = checkLZ4Frame(data)
	})
}

func FuzzProperties(f *testing.F) {
	f.Add(string(readFixture(f, "written/spark-defaults.conf")))
	f.Add("a\\\n  b = c\\u00\nk:v\\")
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range parseProperties(s) {
			if p.Line < 1 {
				t.Fatalf("line %d", p.Line)
			}
		}
	})
}

func FuzzShellWords(f *testing.F) {
	f.Add(string(readFixture(f, "written/spark-submit.sh")))
	f.Add(`a "b\"c" 'd' e\ f \` + "\n g # h")
	f.Fuzz(func(t *testing.T, s string) {
		if words, err := shellWords(s); err == nil {
			p := newProfile("fuzz", FormatSparkSubmit)
			_ = readSubmitArgs(p, words)
		}
	})
}

func FuzzDecodeEnv(f *testing.F) {
	f.Add([]byte(`{"Event":"SparkListenerEnvironmentUpdate","JVM Information":{"Java Version":"17"},"Spark Properties":{"a":"b"},"x":[1,{"y":null}]}`))
	f.Add([]byte(`{"Spark Properties":{"a":{"b":"c"},"d":"e"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, capped, err := decodeEnv(data)
		if err == nil && !capped && len(e.Spark) > maxProps {
			t.Fatalf("%d properties kept", len(e.Spark))
		}
	})
}
