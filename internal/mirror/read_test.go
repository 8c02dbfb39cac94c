package mirror

import (
	"bytes"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// Real public files for issue 33 (testdata/read/SOURCES.md). The facts
// below were read by hand from each file and written down before devenv
// ran on it.

type readCase struct {
	name, path string
	facts      func(t *testing.T, p *Profile, l Local)
}

func warned(t *testing.T, p *Profile, has string) {
	t.Helper()
	if !strings.Contains(strings.Join(p.Warnings, "\n"), has) {
		t.Errorf("warnings %q lack %q", p.Warnings, has)
	}
}

func notWarned(t *testing.T, p *Profile, has string) {
	t.Helper()
	if strings.Contains(strings.Join(p.Warnings, "\n"), has) {
		t.Errorf("warnings %q hold %q", p.Warnings, has)
	}
}

var readCases = []readCase{
	// class 1: the declared sparkVersion decides; the image tag v1.1.0 is
	// the image's own version, and spark352 in its name agrees with 3.5.2
	{"rapids-sparkapp", "read/tpcds-benchmark-rapids.yaml", func(t *testing.T, p *Profile, l Local) {
		eq(t, "format", p.Source.Format, FormatSparkOperator)
		eq(t, "spark", p.Runtime.Spark, "3.5.2")
		eq(t, "spark provenance", p.Runtime.SparkProvenance, "spark-operator:spec.sparkVersion (declared)")
		eq(t, "java", p.Runtime.Java, "17")
		eq(t, "conflicts", len(p.Conflicts), 0)
		eq(t, "executor cores", p.Topology.ExecutorCores, 4)
		eq(t, "executors", p.Topology.Executors, 4)
		eq(t, "executor gpus", p.GPU.ExecutorGPUs, 1.0)
		eq(t, "task gpu", p.GPU.TaskGPU, 0.25)
		// the local Spark is prod's 3.5.2: its shim is prod's
		kept(t, l, "spark.shuffle.manager", "com.nvidia.spark.rapids.spark352.RapidsShuffleManager")
		kept(t, l, "spark.plugins", "com.nvidia.spark.SQLPlugin")
	}},
	// class 4: Gluten/Velox classes are not in the local image
	{"gluten-sparkapp", "read/tpcds-benchmark-gluten-parquet-amd64.yaml", func(t *testing.T, p *Profile, l Local) {
		eq(t, "spark", p.Runtime.Spark, "3.5.8")
		eq(t, "spark provenance", p.Runtime.SparkProvenance, "spark-operator:spec.sparkVersion (declared)")
		eq(t, "conflicts", len(p.Conflicts), 0)
		eq(t, "executor cores", p.Topology.ExecutorCores, 5)
		eq(t, "executors", p.Topology.Executors, 23)
		dropped(t, l, "spark.plugins", "org.apache.gluten.GlutenPlugin")
		dropped(t, l, "spark.shuffle.manager", "ColumnarShuffleManager")
		kept(t, l, "spark.sql.adaptive.enabled", "true")
	}},
	// class 2: a ScheduledSparkApplication is read through spec.template
	{"scheduled", "read/spark-pi-scheduled.yaml", func(t *testing.T, p *Profile, l Local) {
		eq(t, "format", p.Source.Format, FormatSparkOperator)
		eq(t, "platform", p.Source.Platform, "kubernetes")
		eq(t, "spark", p.Runtime.Spark, "4.0.4")
		eq(t, "spark provenance", p.Runtime.SparkProvenance, "spark-operator:spec.template.sparkVersion (declared)")
		eq(t, "scala", p.Runtime.Scala, "2.13")
		eq(t, "label", p.Runtime.Label, "docker.io/apache/spark:4.0.4")
		eq(t, "executors", p.Topology.Executors, 1)
		eq(t, "executor cores", p.Topology.ExecutorCores, 1)
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(512))
		notWarned(t, p, "apiVersion")
	}},
	// class 2: SparkConnect (v1alpha1): server and executor specs
	{"sparkconnect", "read/spark-connect.yaml", func(t *testing.T, p *Profile, l Local) {
		eq(t, "format", p.Source.Format, FormatSparkOperator)
		eq(t, "spark", p.Runtime.Spark, "4.0.4")
		eq(t, "spark provenance", p.Runtime.SparkProvenance, "spark-operator:spec.sparkVersion (declared)")
		eq(t, "scala", p.Runtime.Scala, "2.13")
		eq(t, "label", p.Runtime.Label, "docker.io/apache/spark:4.0.4")
		eq(t, "executors", p.Topology.Executors, 2)
		eq(t, "executor cores", p.Topology.ExecutorCores, 1)
		eq(t, "executor memory", p.Topology.ExecutorMemoryMB, int64(512))
		notWarned(t, p, "devenv reads sparkoperator.k8s.io/v1beta2")
	}},
	// class 2: a multi-document file whose SparkApplication comes after
	// ConfigMaps and Secrets and uses pod templates
	{"pod-template", "read/spark-pi-pod-template.yaml", func(t *testing.T, p *Profile, l Local) {
		eq(t, "format", p.Source.Format, FormatSparkOperator)
		eq(t, "spark", p.Runtime.Spark, "4.0.4")
		eq(t, "scala", p.Runtime.Scala, "2.13")
	}},
	// class 1: Spark's own module named by --packages is evidence of its release
	{"packages", "read/run_spark.sh", func(t *testing.T, p *Profile, l Local) {
		eq(t, "format", p.Source.Format, FormatSparkSubmit)
		eq(t, "spark", p.Runtime.Spark, "3.5.5")
		eq(t, "scala", p.Runtime.Scala, "2.12")
		if !strings.Contains(p.Runtime.SparkProvenance, "spark-sql-kafka-0-10_2.12:3.5.5") {
			t.Errorf("spark provenance %q does not name the coordinate", p.Runtime.SparkProvenance)
		}
	}},
}

func TestReadRealFiles(t *testing.T) {
	for _, tc := range readCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Import("testdata/"+tc.path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			tc.facts(t, p, localFor(p))
		})
	}
}

// TestReadRefusals: a file no reader takes is refused with what it is.
func TestReadRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		has        []string
	}{
		{"heredoc with placeholders", "read/gpu_etl_cluster_spec.sh", []string{"heredoc", "$num_gpus", "${db_version}", "Databricks"}},
		{"heredoc with arithmetic", "read/cpu_cluster_spec.sh", []string{"heredoc", "$(( num_cpus / 8))"}},
		{"kind not a Spark application", "read/scheduledsparkapplication_editor_role.yaml", []string{"kind ClusterRole", "rbac.authorization.k8s.io/v1", "SparkApplication, ScheduledSparkApplication, SparkConnect"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Import("testdata/"+tc.path, Options{})
			if err == nil {
				t.Fatal("imported; want a refusal")
			}
			for _, h := range tc.has {
				if !strings.Contains(err.Error(), h) {
					t.Errorf("refusal %q lacks %q", err, h)
				}
			}
		})
	}
	// --format still forces the reader, which then says what it found
	_, err := Import("testdata/read/gpu_etl_cluster_spec.sh", Options{Format: FormatDatabricks})
	if err == nil || !strings.Contains(err.Error(), "heredoc") || !strings.Contains(err.Error(), "$num_gpus") {
		t.Errorf("forced databricks: err = %v, want the JSON error with the heredoc and its placeholders", err)
	}
	// an unsupported Spark Operator kind is named
	yml := "apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkCluster\nmetadata:\n  name: x\nspec: {}\n"
	_, err = Import(writeTemp(t, "x.yaml", []byte(yml)), Options{})
	if err == nil || !strings.Contains(err.Error(), "kind SparkCluster") {
		t.Errorf("unknown operator kind: err = %v, want it named", err)
	}
	// a manifest commented out whole, or an empty file, says so
	for text, want := range map[string]string{"# apiVersion: sparkoperator.k8s.io/v1beta2\n# kind: SparkApplication\n\n#spec: {}\n": "comments only (3 # lines", "\n  \n": "an empty file"} {
		_, err = Import(writeTemp(t, "x.yaml", []byte(text)), Options{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", text, err, want)
		}
	}
	// a JSON object of an unknown shape names its keys
	_, err = Import(writeTemp(t, "x.json", []byte(`{"foo": 1, "bar": {"baz": 2}}`)), Options{})
	if err == nil || !strings.Contains(err.Error(), "bar, foo") {
		t.Errorf("unknown JSON: err = %v, want its top-level keys named", err)
	}
	// JSON cut short (with a comment line before it, or not) says where
	// it stops parsing, not only that no format matched
	for _, text := range []string{"{\"spark_version\": \"13.3.x-scala2.12\",\n  \"node_type_id\": \n", "// the cluster\n{\"num_workers\": 2,\n"} {
		_, err = Import(writeTemp(t, "cut.json", []byte(text)), Options{})
		if err == nil || !strings.Contains(err.Error(), "JSON that does not parse") || !strings.Contains(err.Error(), ":") {
			t.Errorf("JSON cut short %q: err = %v, want the JSON error with where it stops", text, err)
		}
	}
}

// TestDatabricksOnlyKeysDropped: the heredoc's cluster spec, its
// placeholders filled in as the script's caller would, keeps Delta's OSS
// keys but drops Databricks-only ones with the reason.
func TestDatabricksOnlyKeysDropped(t *testing.T) {
	data := readFixture(t, "read/gpu_etl_cluster_spec.sh")
	body := string(data[bytes.Index(data, []byte("{")) : bytes.LastIndex(data, []byte("}"))+1])
	body = strings.NewReplacer("$num_gpus", "2", "$cluster_name", "bm", "${db_version}", "13.3",
		"${BENCHMARK_HOME}", "/bm", "${cluster_name}", "bm", "${INIT_SCRIPT_DIR}", "/Workspace/x").Replace(body)
	p, err := Import(writeTemp(t, "c.json", []byte(body)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := localFor(p)
	dropped(t, l, "spark.databricks.delta.preview.enabled", "Databricks-only")
	kept(t, l, "spark.databricks.delta.optimizeWrite.enabled", "false")
}

// TestImageNames: a version inferred from a name is accepted only when
// the name says which component it is.
func TestImageNames(t *testing.T) {
	for _, tc := range []struct {
		image, spark, java, rapids, cuda string
	}{
		{"varabonthu/spark352-rapids25-tpcds4-cuda12-9:v1.1.0", "3.5.2", "", "", "12.9"}, // its README: CUDA 12.9
		{"myrepo/spark-rapids:spark-3.5.1_rapids-24.08.1_cuda-11.8_java-8", "3.5.1", "8", "24.08.1", "11.8"},
		{"public.ecr.aws/data-on-eks/spark-benchmark:tcpds-4-gluten-velox-0.1.6.0-spark3.5.8-amd64", "3.5.8", "", "", ""},
		{"apache/spark:3.4.1-scala2.12-java11-python3-ubuntu", "3.4.1", "11", "", ""},
		{"gcr.io/spark-operator/spark:v3.1.1", "3.1.1", "", "", ""},
		// Data Mechanics' images: a line's newest release, or a release with its parts
		{"datamechanics/spark:3.2-latest", "3.2.0", "", "", ""},
		{"datamechanics/spark:3.2.1-hadoop-3.3.1-java-11-scala-2.12-python-3.8-dm18", "3.2.1", "11", "", ""},
		{"example/spark-job:1.2.3", "", "", "", ""},               // a bare tag of a job's image
		{"example/sparkapps:v1.1.0", "", "", "", ""},              // a bare tag again
		{"ghcr.io/kubeflow/spark-operator:2.1.0", "", "", "", ""}, // the operator's own version
	} {
		t.Run(tc.image, func(t *testing.T) {
			p := newProfile("x", FormatSparkSubmit)
			p.addConf("spark.kubernetes.container.image", tc.image, "test")
			p.factsOutsideConf()
			eq(t, "spark", p.Runtime.Spark, tc.spark)
			eq(t, "java", p.Runtime.Java, tc.java)
			eq(t, "rapids", p.GPU.Rapids, tc.rapids)
			eq(t, "cuda", p.GPU.CUDA, tc.cuda)
		})
	}
}

// TestDeclaredBeatsInferred: a declared sparkVersion that an image name
// contradicts is kept, and the conflict is reported with both sources.
func TestDeclaredBeatsInferred(t *testing.T) {
	yml := "apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata:\n  name: x\nspec:\n" +
		"  sparkVersion: \"3.5.2\"\n  image: example/spark-3.4.1-job:v2\n"
	p, err := Import(writeTemp(t, "app.yaml", []byte(yml)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "spark", p.Runtime.Spark, "3.5.2")
	if len(p.Conflicts) != 1 {
		t.Fatalf("conflicts = %+v, want one", p.Conflicts)
	}
	c := p.Conflicts[0]
	eq(t, "fact", c.Fact, "spark")
	eq(t, "kept", c.Value, "3.5.2")
	eq(t, "other", c.Other, "3.4.1")
	if !strings.Contains(c.OtherSource, "example/spark-3.4.1-job:v2") || !strings.Contains(c.Source, "sparkVersion") {
		t.Errorf("conflict sources %q / %q, want both named", c.Source, c.OtherSource)
	}
	warned(t, p, "3.4.1")
}

// TestExecutorGPUsFollowTheRequest: ExecutorAdded may list every GPU of
// the host while the resource profile asked for one; prod's request is
// what the import and the local config follow.
func TestExecutorGPUsFollowTheRequest(t *testing.T) {
	raw := readFixture(t, "real/gpu_oom_eventlog.zstd")
	dec, err := zstd.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	if _, err := plain.ReadFrom(dec); err != nil {
		t.Fatal(err)
	}
	dec.Close()
	const one = `"gpu":{"name":"gpu","addresses":["0"]}`
	if !bytes.Contains(plain.Bytes(), []byte(one)) {
		t.Fatal("fixture changed: no executor with one GPU address")
	}
	wide := bytes.ReplaceAll(plain.Bytes(), []byte(one), []byte(`"gpu":{"name":"gpu","addresses":["0","1","2"]}`))
	p, err := Import(writeTemp(t, "eventlog", wide), Options{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "executor gpus", p.GPU.ExecutorGPUs, 1.0)
	if !strings.Contains(p.GPU.ExecutorGPUsProvenance, "ResourceProfileAdded") {
		t.Errorf("executor gpus provenance %q, want the resource profile's request", p.GPU.ExecutorGPUsProvenance)
	}
	warned(t, p, "3 GPU addresses")
	h := publicHost
	h.GPUs, h.Spark = 4, p.Runtime.Spark
	l := p.Localize(h)
	eq(t, "local executor gpus", l.Conf["spark.executor.resource.gpu.amount"], "1")
}

// TestDeltaConfsNotInOSSDelta: a spark.databricks.delta.* key that
// open-source Delta Lake does not define (a real ucx job's
// formatCheck.enabled) is dropped as Databricks-only; one Delta defines
// (its table-property defaults included) is kept.
func TestDeltaConfsNotInOSSDelta(t *testing.T) {
	p, err := Import("testdata/real/ucx-job-some-spn.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	dropped(t, localFor(p), "spark.databricks.delta.formatCheck.enabled", "Databricks-only")
	for key, want := range map[string]string{
		"spark.databricks.delta.formatCheck.enabled":                               databricksOnlyReason,
		"spark.databricks.delta.preview.enabled":                                   databricksOnlyReason,
		"spark.databricks.delta.schema.autoMerge.enabled":                          "",
		"spark.databricks.delta.retentionDurationCheck.enabled":                    "",
		"spark.databricks.delta.properties.defaults.enableChangeDataFeed":          "",
		"spark.databricks.delta.snapshotCache.storageLevel.mode":                   "",
		"spark.databricks.delta.merge.materializeSource.rddStorageLevelFirstRetry": "",
	} {
		eq(t, key, keyDropReason(key), want)
	}
}

// TestDatabricksJobOnExistingCluster: a real Jobs API job whose task runs
// on an existing cluster is refused with the cluster it names and how to
// export that cluster, not with "no cluster found".
func TestDatabricksJobOnExistingCluster(t *testing.T) {
	_, err := Import("testdata/real/ucx-job-on-simplest-autoscale.json", Options{})
	if err == nil {
		t.Fatal("imported a job that holds no cluster spec")
	}
	for _, want := range []string{"existing_cluster_id simplest-autoscale", "settings.tasks[0]", "databricks clusters get"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to say %q", err, want)
		}
	}
}

// TestRapidsFromCoordinates: the RAPIDS Accelerator passed by Maven
// coordinates (--packages, spark.jars.packages), as NVIDIA's XGBoost and
// spark-rapids docs pass it, names its version and Scala line.
func TestRapidsFromCoordinates(t *testing.T) {
	for _, tc := range []struct{ packages, rapids, scala string }{
		{"com.nvidia:rapids-4-spark_2.12:23.04.0", "23.04.0", "2.12"},
		{"com.nvidia:rapids-4-spark_2.12:24.04.1,ml.dmlc:xgboost4j-spark-gpu_2.12:2.1.0", "24.04.1", "2.12"},
		{"com.nvidia:rapids-4-spark_2.13:25.02.1", "25.02.1", "2.13"},
		{"com.nvidia:rapids-4-spark-tools_2.12:24.08.0", "", "2.12"}, // the tools, not the plugin
	} {
		p := newProfile("x", FormatSparkSubmit)
		p.addConf("spark.jars.packages", tc.packages, "test")
		p.factsOutsideConf()
		if p.GPU.Rapids != tc.rapids || p.Runtime.Scala != tc.scala {
			t.Errorf("%s: rapids %q (%s), scala %q; want %q and %q", tc.packages, p.GPU.Rapids, p.GPU.RapidsProvenance, p.Runtime.Scala, tc.rapids, tc.scala)
		}
	}
}

// TestSparkFromLibraryJars: a library jar built for one Spark release
// names it (BigDL's, as its docs name them); other libraries' Spark lines
// and Scala suffixes are not a release.
func TestSparkFromLibraryJars(t *testing.T) {
	for _, tc := range []struct{ jars, spark string }{
		{"/opt/bigdl/jars/bigdl-assembly-spark_2.4.6-2.2.0-jar-with-dependencies.jar", "2.4.6"},
		{"bigdl-dllib-spark_3.1.3-2.4.0-jar-with-dependencies.jar,other.jar", "3.1.3"},
		{"hudi-spark3.4-bundle_2.12-0.14.0.jar", ""},
		{"iceberg-spark-runtime-3.5_2.12-1.4.2.jar", ""},
		{"delta-spark_2.12-3.1.0.jar", ""},
	} {
		p := newProfile("x", FormatSparkSubmit)
		p.addConf("spark.jars", tc.jars, "test")
		p.factsOutsideConf()
		if p.Runtime.Spark != tc.spark {
			t.Errorf("%s: spark %q (%s), want %q", tc.jars, p.Runtime.Spark, p.Runtime.SparkProvenance, tc.spark)
		}
	}
}

// TestSingleQuotedJSONStrings: a job template that is JSON but for a
// single-quoted string ("on_start": '{{FIXME}}', as mozilla's telemetry
// jobs write one) is read; a single quote inside a string, or one that
// is no string of its own, is left as it is.
func TestSingleQuotedJSONStrings(t *testing.T) {
	for _, tc := range []struct {
		text string
		ok   bool
		want string // the value of "a"
	}{
		{`{"a": '{{FIXME}}', "b": "it's"}`, true, "{{FIXME}}"},
		{`{"a": "it's 'quoted'"}`, true, "it's 'quoted'"},
		{`{"a": 'has "double" quotes'}`, false, ""},
		{"{\"a\": 'spans\nlines'}", false, ""},
	} {
		v, err := decodeJSON([]byte(tc.text))
		if (err == nil) != tc.ok {
			t.Errorf("%q: err %v, want ok %v", tc.text, err, tc.ok)
			continue
		}
		if tc.ok && str(asMap(v)["a"]) != tc.want {
			t.Errorf("%q: a = %q, want %q", tc.text, str(asMap(v)["a"]), tc.want)
		}
	}
}
