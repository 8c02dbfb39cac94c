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
