package mirror

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestRuntimeRowsCiteSources: every row of the platform tables names the
// release-notes page it came from.
func TestRuntimeRowsCiteSources(t *testing.T) {
	tabs, err := loadTables()
	if err != nil {
		t.Fatal(err)
	}
	for name, tab := range tabs {
		for _, r := range tab.Rows {
			if !strings.HasPrefix(r.Source, "https://") {
				t.Errorf("%s row %s cites no release-notes page (source %q)", name, r.Key, r.Source)
			}
		}
	}
}

// TestPlatformTablesCoverage: the runtimes the issue names, from 7.3 LTS
// to the current ones, every EMR 6.x/7.x label, Dataproc 1.5-2.3 and the
// Serverless runtimes are in the tables.
func TestPlatformTablesCoverage(t *testing.T) {
	want := map[string][]string{
		"databricks": {"7.3", "8.4", "9.1", "10.4", "11.3", "12.2", "13.3", "14.3", "15.4", "16.4", "17.3", "18.0"},
		"emr":        {"emr-6.0.0", "emr-6.1.0", "emr-6.2.0", "emr-6.15.0", "emr-7.0.0", "emr-7.12.0", "emr-7.13.0"},
		"dataproc":   {"1.5", "2.0", "2.1", "2.2", "2.3", "serverless-1.1", "serverless-1.2", "serverless-2.2"},
	}
	for table, keys := range want {
		for _, k := range keys {
			if _, ok := lookupRuntime(table, k); !ok {
				t.Errorf("%s runtime %s is not in the table", table, k)
			}
		}
	}
}

// TestDatabricks73: DBR 7.3 LTS runs Spark 3.0.1 on Java 8 (7.3 LTS
// migration guide).
func TestDatabricks73(t *testing.T) {
	p := newProfile("x", FormatDatabricks)
	p.applyDatabricksLabel("7.3.x-gpu-ml-scala2.12", "test")
	if p.Runtime.Spark != "3.0.1" || p.Runtime.Java != "8" || p.Runtime.Scala != "2.12" {
		t.Errorf("7.3 LTS: %s; want Spark 3.0.1, Java 8, Scala 2.12", p.describeFacts())
	}
	if !hasWarning(p, "python for databricks runtime 7.3 is unverified") {
		t.Errorf("no warning names the unverified Python: %q", p.Warnings)
	}
}

// TestEMROnEKSImage: a real EMR-on-EKS SparkApplication whose image is
// .../spark/emr-7.12.0:latest runs Spark 3.5.x on Java 17.
func TestEMROnEKSImage(t *testing.T) {
	p, err := Import(filepath.Join("testdata", "real", "sparkoperator", "emr-on-eks-spark-pi.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Runtime.Spark, "3.5.") || p.Runtime.Java != "17" || p.Source.Platform != "emr-eks" || p.Source.Cloud != "aws" {
		t.Errorf("EMR on EKS 7.12.0 image: %s; want Spark 3.5.x, Java 17, platform emr-eks, cloud aws", p.describeFacts())
	}
	for _, label := range []string{"emr-6.12.0-java17-latest", "emr-7.12.0-latest", "emr-6.10.0-spark-rapids-20230624"} {
		key, java := emrReleaseKey(label)
		if _, ok := lookupRuntime("emr", key); !ok || (strings.Contains(label, "java17") && java != "17") {
			t.Errorf("EMR on EKS release label %s: key %s, java %q", label, key, java)
		}
	}
}

// TestUnknownRuntimeSaysWhatToSet: a runtime the tables lack is warned
// about with the devenv.yaml fields to set.
func TestUnknownRuntimeSaysWhatToSet(t *testing.T) {
	p := newProfile("x", FormatDatabricks)
	p.applyDatabricksLabel("99.1.x-scala2.13", "test")
	if !hasWarning(p, "set spark:, scala:, java: in devenv.yaml") {
		t.Errorf("warnings %q", p.Warnings)
	}
}

// notDatabricksReleases are runtime labels that real test fixtures name
// but Databricks never released: the table must not have them, so that an
// import of such a file warns that the runtime is unknown.
var notDatabricksReleases = map[string]string{
	"9.3":  "9.1 LTS was followed by 10.0 (databrickslabs/ucx's test clusters name 9.3.x-cpu-ml-scala2.12)",
	"12.3": "12.2 LTS was followed by 13.0 (databrickslabs/ucx's test clusters name 12.3.x-cpu-scala2.12)",
}

// TestRealRuntimesInTables: every runtime named in the repository's real
// files (Databricks labels, EMR release labels and images, Dataproc image
// versions) is in the tables; the corpus and testdata/read files count.
func TestRealRuntimesInTables(t *testing.T) {
	t.Parallel()
	dbx := regexp.MustCompile(`\b(\d+\.\d+)\.x-[a-z0-9-]*scala2\.1\d`)
	emr := regexp.MustCompile(`\bemr-(\d+\.\d+\.\d+)`)
	dp := regexp.MustCompile(`imageVersion["']?\s*[:=]\s*["']?(\d+\.\d+)`)
	seen := 0
	for _, dir := range []string{"testdata/real", "testdata/public", "testdata/read", "testdata/corpus"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			text := readAnyText(t, path)
			for _, m := range dbx.FindAllStringSubmatch(text, -1) {
				seen++
				if why, fake := notDatabricksReleases[m[1]]; fake {
					if _, ok := lookupRuntime("databricks", m[1]); ok {
						t.Errorf("%s: Databricks runtime %s is in the table, but %s", path, m[1], why)
					}
					continue
				}
				if _, ok := lookupRuntime("databricks", m[1]); !ok {
					t.Errorf("%s names Databricks runtime %s, not in the table", path, m[1])
				}
			}
			for _, m := range emr.FindAllStringSubmatch(text, -1) {
				seen++
				if _, ok := lookupRuntime("emr", "emr-"+m[1]); !ok {
					t.Errorf("%s names EMR release emr-%s, not in the table", path, m[1])
				}
			}
			for _, m := range dp.FindAllStringSubmatch(text, -1) {
				seen++
				if _, ok := lookupRuntime("dataproc", m[1]); !ok {
					t.Errorf("%s names Dataproc image %s, not in the table", path, m[1])
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if seen < 10 {
		t.Fatalf("only %d runtime names found in the real files: the scan is broken", seen)
	}
}

// readAnyText reads a fixture, decompressing zstd and gzip, at most 64 MiB.
func readAnyText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r io.Reader
	switch {
	case strings.HasSuffix(path, ".zstd") || strings.HasSuffix(path, ".zst"):
		d, err := zstd.NewReader(bytes.NewReader(data))
		if err != nil {
			return ""
		}
		defer d.Close()
		r = d
	case strings.HasSuffix(path, ".gz"):
		g, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return ""
		}
		r = g
	default:
		return string(data)
	}
	out, _ := io.ReadAll(io.LimitReader(r, 64<<20))
	return string(out)
}

// TestDatabricksEventLogWithoutLabel: a real Databricks event log with its
// sparkVersion tags removed is still recognised as Databricks by its
// cluster tags and /databricks/jars paths; platform, cloud and worker
// type are kept.
func TestDatabricksEventLogWithoutLabel(t *testing.T) {
	text := readAnyText(t, filepath.Join("testdata", "real", "xgboost_eventlog.zstd"))
	if !strings.Contains(text, "clusterUsageTags.sparkVersion") {
		t.Fatal("the fixture no longer has the tag this test removes")
	}
	drop := regexp.MustCompile(`"spark\.databricks\.clusterUsageTags\.(?:effectiveSparkVersion|sparkVersion|cloudProvider)":"[^"]*",?`)
	path := filepath.Join(t.TempDir(), "eventlog")
	if err := os.WriteFile(path, []byte(drop.ReplaceAllString(text, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Import(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Source.Platform != "databricks" || p.Source.Cloud != "aws" || p.Topology.WorkerType != "m4.2xlarge" {
		t.Errorf("platform %q, cloud %q, worker %q; want databricks, aws, m4.2xlarge", p.Source.Platform, p.Source.Cloud, p.Topology.WorkerType)
	}
	if !hasWarning(p, "names no Databricks runtime") {
		t.Errorf("no warning says the runtime label is missing: %q", p.Warnings)
	}
}

// TestToolsClusterWorkerHardware: a real spark-rapids-tools target-cluster
// YAML's workerInfo.cpuCores and memoryGB are the worker's hardware.
func TestToolsClusterWorkerHardware(t *testing.T) {
	p, err := Import(filepath.Join("testdata", "real", "targetCluster06.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Topology.WorkerVCPUs != 16 || p.Topology.WorkerMemoryMB != 64*1024 || p.GPU.PerNode != 1 || p.GPU.Model != "L4" {
		t.Errorf("worker %d vCPUs, %d MB, %d GPU %s; want 16, 65536, 1 L4", p.Topology.WorkerVCPUs, p.Topology.WorkerMemoryMB, p.GPU.PerNode, p.GPU.Model)
	}
	if !hasWarning(p, "tuningDefinitions") {
		t.Errorf("tuningDefinitions are ignored without a word: %q", p.Warnings)
	}
}

// TestInstanceFamilies: the node types the platforms use are in the
// catalog, Azure's Standard_F4s and Standard_D4ds_v5 among them.
func TestInstanceFamilies(t *testing.T) {
	for name, want := range map[string][2]int{
		"Standard_F4s": {4, 0}, "Standard_F8s_v2": {8, 0}, "Standard_E8s_v3": {8, 0}, "Standard_NC24ads_A100_v4": {24, 1},
		"Standard_ND96isr_H100_v5": {96, 8}, "g6e.48xlarge": {192, 8}, "p5e.48xlarge": {192, 8}, "a2-highgpu-1g": {12, 1},
		"a3-highgpu-8g": {208, 8}, "g2-standard-4": {4, 1}, "Standard_D4ds_v5": {4, 0}, "Standard_D16s_v5": {16, 0},
		"m3.xlarge": {4, 0}, "c4.xlarge": {4, 0}, "Standard_D4ps_v6": {4, 0}, "Standard_D192s_v6": {192, 0},
	} {
		in, ok := LookupInstance(name)
		if !ok || in.VCPUs != want[0] || in.GPUs != want[1] {
			t.Errorf("%s: %+v (found %v); want %d vCPUs, %d GPUs", name, in, ok, want[0], want[1])
		}
	}
}

func hasWarning(p *Profile, sub string) bool {
	for _, w := range p.Warnings {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}
