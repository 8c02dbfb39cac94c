package mirror

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// snappyJava encodes data the way snappy-java's SnappyOutputStream does.
func snappyJava(data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x82SNAPPY\x00")
	_ = binary.Write(&b, binary.BigEndian, uint32(1))
	_ = binary.Write(&b, binary.BigEndian, uint32(1))
	for len(data) > 0 {
		n := min(len(data), 32<<10)
		block := snappy.Encode(nil, data[:n])
		_ = binary.Write(&b, binary.BigEndian, uint32(len(block)))
		b.Write(block)
		data = data[n:]
	}
	return b.Bytes()
}

// lz4Block encodes data the way lz4-java's LZ4BlockOutputStream does
// (checksums are not verified by the reader, so zero is written).
func lz4Block(data []byte) []byte {
	var b bytes.Buffer
	for len(data) > 0 {
		n := min(len(data), 64<<10)
		dst := make([]byte, lz4.CompressBlockBound(n))
		c, _ := lz4.CompressBlock(data[:n], dst, nil)
		b.WriteString("LZ4Block")
		if c == 0 {
			b.WriteByte(0x10)
			dst, c = data[:n], n
		} else {
			b.WriteByte(0x20)
		}
		_ = binary.Write(&b, binary.LittleEndian, uint32(c))
		_ = binary.Write(&b, binary.LittleEndian, uint32(n))
		_ = binary.Write(&b, binary.LittleEndian, uint32(0))
		b.Write(dst[:c])
		data = data[n:]
	}
	b.WriteString("LZ4Block\x10")
	b.Write(make([]byte, 12))
	return b.Bytes()
}

func framedSnappy(data []byte) []byte {
	var b bytes.Buffer
	w := snappy.NewBufferedWriter(&b)
	_, _ = w.Write(data) // into a bytes.Buffer: cannot fail
	_ = w.Close()
	return b.Bytes()
}

func zstdBytes(data []byte) []byte {
	enc, _ := zstd.NewWriter(nil)
	return enc.EncodeAll(data, nil)
}

func TestEventLogCodecs(t *testing.T) {
	plain := readFixture(t, "real/gpu_eventlog")
	cases := map[string][]byte{
		"app.snappy":     snappyJava(plain),
		"app.lz4":        lz4Block(plain),
		"app.sz":         framedSnappy(plain),
		"app.log":        zstdBytes(plain), // wrong extension
		"no-extension":   plain,
		"crlf-lines.txt": bytes.ReplaceAll(plain, []byte("\n"), []byte("\r\n")),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := Import(writeTemp(t, name, data), Options{Full: true})
			if err != nil {
				t.Fatal(err)
			}
			eq(t, "spark", p.Runtime.Spark, "3.1.1")
			eq(t, "java", p.Runtime.JavaFull, "1.8.0_282")
			if len(p.Warnings) != 0 {
				t.Errorf("warnings: %v", p.Warnings)
			}
		})
	}
}

func TestBadInputs(t *testing.T) {
	plain := readFixture(t, "real/gpu_eventlog")
	z := readFixture(t, "real/eventlog_4nodes_8cores_dynamic_alloc.zstd")
	huge := append([]byte(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}`+"\n"+`{"Event":"SparkListenerTaskEnd","x":"`),
		bytes.Repeat([]byte("a"), 40<<20)...)
	huge = append(huge, []byte(`"}`+"\n")...)
	huge = append(huge, plain[bytes.IndexByte(plain, '\n')+1:]...)
	cases := []struct {
		name, file string
		data       []byte
		errHas     string // "" = success expected
		warnHas    string
	}{
		{"cut zstd", "a.zstd", z[:len(z)/2], "", "ends early"},
		{"cut plain mid-line", "a", plain[:len(plain)-100], "", "cut off"},
		{"not json lines", "a", append([]byte("garbage\nmore garbage\n"), plain...), "", "2 of"},
		{"huge line", "a", huge, "", ""},
		{"binary garbage", "a.bin", bytes.Repeat([]byte{0, 1, 2, 0xff}, 1000), "binary", ""},
		{"zstd garbage", "a.zstd", append([]byte{0x28, 0xb5, 0x2f, 0xfd}, bytes.Repeat([]byte{7}, 100)...), "no Spark version", ""},
		{"json lines without spark", "a", []byte(`{"Event":"SparkListenerTaskEnd"}` + "\n"), "no Spark version", ""},
		{"empty", "a", nil, "empty", ""},
		{"unknown text", "notes.txt", []byte("hello world\n"), "supported:", ""},
		{"bad databricks json", "c.json", []byte(`{"spark_version": "13.3.x-scala2.12", "spark_conf": {"a": }}`), "1:", ""},
		{"databricks num_workers object", "c.json", []byte(`{"spark_version": "13.3.x-scala2.12", "num_workers": {"x": 1}}`), "c.json:1:54: num_workers is an object, want a number", ""},
		{"databricks spark_conf string", "c.json", []byte(`{"spark_version": "13.3.x-scala2.12",` + "\n" + `"spark_conf": "a=b"}`), "c.json:2:15: spark_conf is a string, want an object", ""},
		{"databricks task cluster conf list", "c.json", []byte(`{"tasks": [{"new_cluster": {"spark_version": "13.3.x-scala2.12", "spark_conf": {"a": ["b"]}}}]}`), "tasks[0].new_cluster.spark_conf.a is an array, want a string", ""},
		{"databricks autoscale string", "c.json", []byte(`{"spark_version": "13.3.x-scala2.12", "autoscale": {"min_workers": "two"}}`), "autoscale.min_workers is a string, want a number", ""},
		{"emr configurations string", "cluster.json", []byte(`{"Cluster": {"ReleaseLabel": "emr-7.1.0", "Configurations": "x"}}`), "Cluster.Configurations is a string, want an array", ""},
		{"emr instance count object", "cluster.json", []byte(`{"Cluster": {"ReleaseLabel": "emr-7.1.0", "InstanceGroups": [{"InstanceGroupType": "CORE", "RequestedInstanceCount": {}}]}}`), "Cluster.InstanceGroups[0].RequestedInstanceCount is an object, want a number", ""},
		{"emr classification properties list", "configurations.json", []byte(`[{"Classification": "spark-defaults", "Properties": ["a"]}]`), "[0].Properties is an array, want an object", ""},
		{"dataproc workers list", "c.yaml", []byte("clusterName: c\nconfig:\n  softwareConfig: {imageVersion: 2.2-debian12}\n  workerConfig:\n    numInstances: [2]\n"), "c.yaml:5:19: config.workerConfig.numInstances is an array, want a number", ""},
		{"dataproc numeric string ok", "c.yaml", []byte("clusterName: c\nconfig:\n  softwareConfig: {imageVersion: 2.2-debian12}\n  workerConfig:\n    numInstances: '2'\n"), "", ""},
		{"tools gpu count object", "c.yaml", []byte("system:\n  numWorkers: 2\ngpu:\n  count: {a: 1}\n  name: T4\n"), "c.yaml:4:10: gpu.count is an object, want a number", ""},
		{"spark operator sparkConf string", "app.yaml", []byte("apiVersion: v1\nkind: ConfigMap\n---\napiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nspec:\n  sparkVersion: 3.5.1\n  sparkConf: spark.a=b\n"), "app.yaml:8:14: spec.sparkConf is a string, want an object", ""},
		{"scheduled spark operator gpu quantity", "app.yaml", []byte("apiVersion: sparkoperator.k8s.io/v1beta2\nkind: ScheduledSparkApplication\nspec:\n  schedule: '@daily'\n  template:\n    sparkVersion: 3.5.1\n    executor: {gpu: {name: nvidia.com/gpu, quantity: [1]}}\n"), "app.yaml:7:54: spec.template.executor.gpu.quantity is an array, want a number", ""},
		{"lzf", "a.lzf", []byte("ZV\x00\x00\x05hello"), "not supported", ""},
		{"unterminated quote", "submit.sh", []byte("spark-submit --conf 'a=b\n"), "unterminated", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Import(writeTemp(t, tc.file, tc.data), Options{Full: true})
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("err = %v, want one containing %q", err, tc.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.warnHas != "" && !strings.Contains(strings.Join(p.Warnings, "\n"), tc.warnHas) {
				t.Errorf("warnings %v lack %q", p.Warnings, tc.warnHas)
			}
		})
	}
}

func TestEventLogFilesOrder(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"events_10_app", "events_2_app.zstd", "events_1_app", "appstatus_app"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := eventLogFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	eq(t, "order", strings.Join(names, " "), "events_1_app events_2_app.zstd events_10_app")

	dbx := t.TempDir()
	for _, n := range []string{"eventlog", "eventlog-2024-01-02--10-00.gz", "eventlog-2024-01-01--09-00.gz"} {
		if err := os.WriteFile(filepath.Join(dbx, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, _ = eventLogFiles(dbx)
	names = names[:0]
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	eq(t, "databricks order", strings.Join(names, " "), "eventlog-2024-01-01--09-00.gz eventlog-2024-01-02--10-00.gz eventlog")

	if _, err := eventLogFiles(t.TempDir()); err == nil {
		t.Errorf("empty directory accepted")
	}
}

func TestUnknownFormatOption(t *testing.T) {
	_, err := Import(filepath.Join("testdata", "real", "emr-cpu-00.json"), Options{Format: "cloudera"})
	if err == nil || !strings.Contains(err.Error(), FormatDatabricks) {
		t.Fatalf("err = %v, want the list of formats", err)
	}
}
