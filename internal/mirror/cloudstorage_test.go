package mirror

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCloudFromStorage names the cloud from the stores real training files
// read and write, and keeps quiet where S3 URLs may be another store's.
func TestCloudFromStorage(t *testing.T) {
	for _, tc := range []struct{ file, cloud, why string }{
		{"eksb-word_count_s3.yaml", "aws", "InstanceProfileCredentialsProvider"},
		{"doe-mountpoint-s3-spark-job.yaml", "aws", "WebIdentityTokenCredentialsProvider"},
		{"eoeb-tpcds-benchmark.yaml", "aws", "s3:// arguments"},
		{"kubespark-perbucket.yaml", "", "s3a:// buckets whose per-bucket endpoints are on-prem (192.168.170.12, purestorage.int)"},
		{"kyuubi-arctic-spark-defaults.conf", "", "s3a:// alone: the playground's store is MinIO, its endpoint outside the file"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "corpus", "train", tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := importBytes(path, detectBytes(data), data)
			if err != nil {
				t.Fatal(err)
			}
			p.factsOutsideConf() // as Import does after the reader
			if p.Source.Cloud != tc.cloud {
				t.Errorf("cloud %q, want %q (%s)", p.Source.Cloud, tc.cloud, tc.why)
			}
		})
	}
}

// TestCloudFromSDKv2Credentials: S3A configured with AWS SDK v2's web
// identity provider (Hadoop 3.4's S3A, as data-on-eks configures it) names
// AWS, as the SDK v1 name does.
func TestCloudFromSDKv2Credentials(t *testing.T) {
	p := newProfile("x", FormatSparkSubmit)
	p.addConf("spark.hadoop.fs.s3a.aws.credentials.provider", "software.amazon.awssdk.auth.credentials.WebIdentityTokenFileCredentialsProvider", "test")
	p.addConf("spark.eventLog.dir", "s3a://bucket/spark-events", "test")
	p.factsOutsideConf()
	if p.Source.Cloud != "aws" {
		t.Errorf("cloud %q, want aws", p.Source.Cloud)
	}
}
