package redact

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/redact/redacttest"
)

func TestCatalogue(t *testing.T) {
	if n := len(redacttest.Catalogue); n < 40 {
		t.Fatalf("catalogue has %d shapes, want at least 40", n)
	}
	for _, s := range redacttest.Catalogue {
		t.Run(s.Name, func(t *testing.T) {
			got, found := Value(s.Key, s.Value)
			if !found || strings.Contains(got, s.Secret) {
				t.Errorf("Value(%s) = %q, %v: the secret stays", s.Key, got, found)
			}
			if line := Line(s.Key + "=" + s.Value + "\n"); strings.Contains(line, s.Secret) {
				t.Errorf("Line kept the secret: %q", line)
			}
		})
	}
}

func TestNotSecrets(t *testing.T) {
	for _, kv := range [][2]string{
		{"spark.hadoop.fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider"},
		{"spark.authenticate", "true"},
		{"spark.sql.shuffle.partitions", "200"},
		{"spark.driver.extraJavaOptions", "-Dlog4j.configuration=file:/opt/log4j.properties -Dpath=/x -XX:+UseG1GC"},
		{"spark.executor.extraClassPath", "/opt/jars/a.jar:/opt/jars/b.jar"},
		{"spark.jars", "https://repo1.maven.org/maven2/com/nvidia/rapids-4-spark_2.12/24.10.0/rapids-4-spark_2.12-24.10.0.jar"},
		{"spark.plugins", "com.nvidia.spark.SQLPlugin"},
		{"spark.sql.catalog.x.uri", "thrift://metastore:9083"},
		{"spark.rapids.sql.concurrentGpuTasks", "2"},
		{"spark.task.resource.gpu.amount", "0.125"},
		{"spark.kryo.registrator", "com.nvidia.spark.rapids.GpuKryoRegistrator"},
		{"spark.sql.files.maxPartitionBytes", "512m"},
		{"spark.hadoop.fs.s3a.path.style.access", "true"},
		{"spark.custom.note", "pass the token via env"},
	} {
		if got, found := Value(kv[0], kv[1]); found {
			t.Errorf("%s=%s redacted to %q", kv[0], kv[1], got)
		}
	}
}

func TestStringKeepsTheRest(t *testing.T) {
	got := String("-Xss4m -Dcom.example.secretKey=abc123 -XX:+UseG1GC https://u:p4ss@h/x")
	want := "-Xss4m -Dcom.example.secretKey=" + Mask + " -XX:+UseG1GC https://u:" + Mask + "@h/x"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range redacttest.Catalogue[:10] {
		f.Add(s.Value)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if String(out) != out {
			t.Errorf("not idempotent: %q -> %q -> %q", s, out, String(out))
		}
	})
}
