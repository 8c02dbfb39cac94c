package mirror

import (
	"strings"
	"testing"
)

// TestLocalClassOfIcebergModules: Iceberg's cloud FileIOs and catalogs
// ship in modules apart from its Spark runtime, so a prod that names only
// the runtime (as aws-samples' EKS Iceberg job does, with S3FileIO) has
// none of them locally; a locked module keeps its classes.
func TestLocalClassOfIcebergModules(t *testing.T) {
	cases := []struct {
		cls, pkg string
		has      bool
		why      string
	}{
		{"org.apache.iceberg.aws.s3.S3FileIO", "org.apache.iceberg:iceberg-spark3-runtime:0.13.1", false, "Iceberg's AWS module"},
		{"org.apache.iceberg.aws.s3.S3FileIO", "org.apache.iceberg:iceberg-aws-bundle:1.5.0", true, ""},
		{"org.apache.iceberg.gcp.gcs.GCSFileIO", "org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.5.0", false, "Iceberg's GCP module"},
		{"org.apache.iceberg.azure.adlsv2.ADLSFileIO", "org.apache.iceberg:iceberg-azure-bundle:1.5.0", true, ""},
		{"org.apache.iceberg.spark.SparkCatalog", "org.apache.iceberg:iceberg-spark3-runtime:0.13.1", true, ""},
		{"org.apache.iceberg.spark.SparkCatalog", "", false, "Apache Iceberg"},
	}
	for _, c := range cases {
		p := newProfile("test", "test")
		if c.pkg != "" {
			p.Packages = []Package{{Coords: c.pkg, From: "spark.jars.packages"}}
		}
		has, why := p.localClass(c.cls)
		if has != c.has || !strings.Contains(why, c.why) {
			t.Errorf("localClass(%s) with %q = %v %q, want %v with %q", c.cls, c.pkg, has, why, c.has, c.why)
		}
	}
}

// TestLocalSource: spark.sql.sources.default naming a format of a jar the
// local image lacks (Databricks' "delta" without Delta Lake's package) is
// dropped, saying which; Spark's own formats and locked ones stay.
func TestLocalSource(t *testing.T) {
	cases := []struct {
		format, pkg, kept, why string
	}{
		{"delta", "", "", "the default data source delta names org.apache.spark.sql.delta.sources.DeltaDataSource, a class of Delta Lake"},
		{"delta", "io.delta:delta-spark_2.12:3.1.0", "delta", ""},
		{"parquet", "", "parquet", ""},
		{"Iceberg", "", "", "Apache Iceberg"},
	}
	for _, c := range cases {
		p := newProfile("test", "test")
		if c.pkg != "" {
			p.Packages = []Package{{Coords: c.pkg, From: "spark.jars.packages"}}
		}
		kept, missing, _ := p.localClasses("spark.sql.sources.default", c.format)
		if kept != c.kept || !strings.Contains(strings.Join(missing, "; "), c.why) || (c.why == "") != (len(missing) == 0) {
			t.Errorf("sources.default=%s with %q: kept %q, missing %q; want %q with %q", c.format, c.pkg, kept, missing, c.kept, c.why)
		}
	}
}
