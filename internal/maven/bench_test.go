package maven

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// slowRepo serves testdata/repo from disk with a fixed latency per file,
// as a remote mirror answers.
type slowRepo struct {
	latency time.Duration
	gets    *atomic.Int64
}

func (s slowRepo) Get(ctx context.Context, url string) ([]byte, error) {
	s.gets.Add(1)
	select {
	case <-time.After(s.latency):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	_, rel, _ := strings.Cut(url, "/maven2/")
	data, err := os.ReadFile(filepath.Join("testdata", "repo", filepath.FromSlash(rel)))
	if os.IsNotExist(err) {
		return nil, ErrNotFound
	}
	return data, err
}

// BenchmarkResolveRemote resolves four packages prod jobs use (22 POMs)
// from a repository 20 ms away: prefetching makes it cost round trips
// per level of the tree, not per POM.
func BenchmarkResolveRemote(b *testing.B) {
	var roots []Root
	for _, c := range []string{"org.apache.hadoop:hadoop-aws:3.3.4", "io.delta:delta-spark_2.12:3.2.0",
		"com.databricks:spark-xml_2.13:0.18.0", "org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.5.0"} {
		co, _ := ParseCoord(c)
		roots = append(roots, Root{Coord: co})
	}
	var gets atomic.Int64
	for b.Loop() {
		if _, err := Resolve(b.Context(), slowRepo{20 * time.Millisecond, &gets}, roots, Options{Repo: central, Fetch: "http://mirror/maven2", Exclude: SparkProvided}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(gets.Load())/float64(b.N), "gets/op")
}
