package mirror

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// addSeeds adds every fixture (and its first 4 KB) as a seed.
func addSeeds(f *testing.F, dirs ...string) {
	for _, d := range dirs {
		entries, _ := os.ReadDir(filepath.Join("testdata", d))
		for _, e := range entries {
			if e.IsDir() || e.Name() == "SOURCES.md" {
				continue
			}
			data, err := os.ReadFile(filepath.Join("testdata", d, e.Name()))
			if err != nil {
				continue
			}
			if len(data) > 4096 {
				f.Add(data[:4096])
			}
			if len(data) < 64<<10 {
				f.Add(data)
			}
		}
	}
}

func FuzzImportDescription(f *testing.F) {
	addSeeds(f, "real", "written")
	f.Fuzz(func(t *testing.T, data []byte) {
		if format := detectBytes(data); format != "" && format != FormatEventLog {
			if p, err := importBytes("fuzz", format, data); err == nil {
				p.deriveFromConf()
				p.Localize(Host{CPUs: 4, MemoryMB: 8192, GPUs: 1})
			}
		}
		for _, format := range []string{FormatDatabricks, FormatEMR, FormatEMRConfigurations, FormatDataproc,
			FormatSparkOperator, FormatSparkDefaults, FormatSparkSubmit, FormatToolsCluster} {
			if p, err := importBytes("fuzz", format, data); err == nil {
				p.deriveFromConf()
			}
		}
	})
}

func FuzzEventLog(f *testing.F) {
	addSeeds(f, "real")
	f.Add([]byte(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}` + "\n" + `{"Event":"SparkListenerExecutorAdded","Executor ID":"1","Executor Info":{"Host":"h","Resources":{"gpu":{"addresses":["0"]}}}}`))
	f.Add(snappyJava([]byte(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}`)))
	f.Add(lz4Block([]byte(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := logSource{name: "fuzz", open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
		if p, err := readEventLog("fuzz", []logSource{src}, true); err == nil {
			p.Localize(Host{CPUs: 2, MemoryMB: 4096})
		}
	})
}

func FuzzDecompress(f *testing.F) {
	addSeeds(f, "real")
	f.Add(snappyJava([]byte("hello\n")))
	f.Add(lz4Block([]byte("hello\n")))
	f.Add(framedSnappy([]byte("hello\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, _, closeDec, err := decompress(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			return
		}
		defer closeDec()
		_, _ = io.Copy(io.Discard, io.LimitReader(r, 64<<20)) // the target only must not panic or hang
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
