package lock

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/fetch"
	"github.com/devenv-dev/devenv/internal/maven"
	"github.com/devenv-dev/devenv/internal/maven/maventest"
	"github.com/devenv-dev/devenv/profiles"
)

// mavenFetcher verifies the jars from the Maven stand-in for real (its
// .sha1 files against the bytes) and fakes the rest (Spark, RAPIDS).
type mavenFetcher struct {
	cache *fetch.Cache
	repo  string
	fake  fakeFetcher
}

func (f *mavenFetcher) Verified(ctx context.Context, url, checksumURL, algo string) (string, string, error) {
	if strings.HasPrefix(url, f.repo) && !strings.Contains(url, "/rapids-4-spark_") {
		return f.cache.Verified(ctx, url, checksumURL, algo)
	}
	return f.fake.Verified(ctx, url, checksumURL, algo)
}

// TestLockPinsProdPackagesWithTheirDependencies: prod's --packages (from a
// job script that assigns the version to a variable first) and
// devenv.yaml's jars are resolved with their transitive dependencies
// through mirrors.maven, every jar pinned by the sha256 of bytes checked
// against the repository's .sha1; a jar of another Scala line is noted;
// a relock with nothing changed reads no POM.
func TestLockPinsProdPackagesWithTheirDependencies(t *testing.T) {
	srv := maventest.Serve(t, filepath.Join("..", "..", "internal", "maven", "testdata", "repo"))
	dir := t.TempDir()
	script := "#!/bin/bash\n# nightly job\nHADOOP_AWS=3.3.4\nexport PKGS=\"org.apache.hadoop:hadoop-aws:${HADOOP_AWS},io.delta:delta-spark_2.12:3.2.0\"\n\n" +
		"spark-submit --master yarn \\\n  --packages \"$PKGS\" \\\n  --conf spark.sql.extensions=io.delta.sql.DeltaSparkSessionExtension \\\n  job.py\n"
	if err := os.MkdirAll(filepath.Join(dir, "prod"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prod", "job.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "name: demo\nservices:\n  spark:\n    profile: spark-rapids\n    spark: \"3.5.1\"\n    rapids: \"25.06.0\"\n" +
		"    mirror: prod/job.sh\n    jars: [\"com.databricks:spark-xml_2.13:0.18.0\"]\nmirrors:\n  maven: \"" + srv.URL + "\"\n"
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(text), dir)
	if err != nil {
		t.Fatal(err)
	}
	fetcher := &mavenFetcher{cache: &fetch.Cache{Dir: t.TempDir()}, repo: srv.URL}
	f, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, fetcher, Options{Mirrors: mirrors(p), POMs: maven.HTTP{}})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var jars []string
	for _, a := range f.Service("spark").Artifacts {
		if !strings.HasPrefix(a.Name, "jar:") {
			continue
		}
		jars = append(jars, strings.TrimPrefix(a.Name, "jar:"))
		rel := strings.TrimPrefix(a.URL, "https://repo1.maven.org/maven2/")
		if a.SHA256 != srv.SHA256(rel) {
			t.Errorf("%s: sha256 %s, the repository serves %s", a.Name, a.SHA256, srv.SHA256(rel))
		}
	}
	want := []string{
		"com.databricks:spark-xml_2.13:0.18.0",
		"org.apache.hadoop:hadoop-aws:3.3.4", "io.delta:delta-spark_2.12:3.2.0",
		"commons-io:commons-io:2.15.1", "org.glassfish.jaxb:txw2:3.0.2", "org.apache.ws.xmlschema:xmlschema-core:2.3.1",
		"com.amazonaws:aws-java-sdk-bundle:1.12.262", "org.wildfly.openssl:wildfly-openssl:1.0.7.Final",
		"io.delta:delta-storage:3.2.0", "org.antlr:antlr4-runtime:4.9.3",
		"org.wildfly.openssl:wildfly-openssl-java:1.0.7.Final",
	}
	if !slices.Equal(jars, want) {
		t.Errorf("locked jars:\n got  %q\n want %q", jars, want)
	}
	if !slices.ContainsFunc(f.Notes, func(n string) bool { return strings.Contains(n, "spark-xml_2.13:0.18.0 is built for Scala 2.13") }) {
		t.Errorf("no note about the Scala 2.13 jar: %q", f.Notes)
	}
	before := len(srv.Requests())
	if _, err := Generate(t.Context(), p, f, profiles.Builtin(), &fakePinner{}, fetcher, Options{Mirrors: mirrors(p), POMs: maven.HTTP{}}); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("a relock with nothing changed made %d requests to the Maven repository", n)
	}
}
