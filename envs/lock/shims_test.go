package lock

import (
	"archive/zip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/devenv-dev/devenv/internal/fetch"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/devenv-dev/devenv/test/standin"
)

var (
	jarDir     string
	jarMu      sync.Mutex
	jarByURL   = map[string]string{}
	rapidsURLs = regexp.MustCompile(`/rapids-4-spark_(2\.1[23])/([0-9.]+)/`)
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "devenv-lock-jars")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	jarDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// standInJarFor is the fake fetcher's download of a RAPIDS Accelerator jar:
// a stand-in with the real layout and the catalog's shims for its release.
func standInJarFor(url string) string {
	jarMu.Lock()
	defer jarMu.Unlock()
	if p, ok := jarByURL[url]; ok {
		return p
	}
	m := rapidsURLs.FindStringSubmatch(url)
	if m == nil {
		panic("not a RAPIDS Accelerator jar URL: " + url)
	}
	data, err := standin.RapidsJar("stand-in", m[2], profiles.Builtin().AcceleratorSpark(m[2], m[1]))
	if err != nil {
		panic(err)
	}
	p := filepath.Join(jarDir, fmt.Sprintf("%d.jar", len(jarByURL)))
	if err := os.WriteFile(p, data, 0o644); err != nil {
		panic(err)
	}
	jarByURL[url] = p
	return p
}

func writeJar(t *testing.T, sparks []string, vendor ...string) string {
	t.Helper()
	data, err := standin.RapidsJar("stand-in", "26.06.0", sparks, vendor...)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "x.jar")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadJarShims(t *testing.T) {
	p := writeJar(t, []string{"4.0.2", "3.5.8", "4.0.0"}, "spark350db143")
	got, err := profiles.ReadJarShims(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Spark, ",") != "3.5.8,4.0.0,4.0.2" || strings.Join(got.Vendor, ",") != "spark350db143" {
		t.Fatalf("shims %+v", got)
	}
	notJar := filepath.Join(t.TempDir(), "x.jar")
	if err := os.WriteFile(notJar, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := profiles.ReadJarShims(notJar); err == nil || !strings.Contains(err.Error(), "not a readable jar") {
		t.Fatalf("err = %v", err)
	}
	plain := filepath.Join(t.TempDir(), "plain.jar")
	writeZip(t, plain, map[string]string{"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\n"})
	if _, err := profiles.ReadJarShims(plain); err == nil || !strings.Contains(err.Error(), "not a RAPIDS Accelerator distribution jar") {
		t.Fatalf("err = %v", err)
	}
	// A provider listed without its class is skipped by ShimLoader: not a shim.
	listed := filepath.Join(t.TempDir(), "listed.jar")
	writeZip(t, listed, map[string]string{
		profiles.ShimServiceFile: profiles.ShimProvider("spark353") + "\n# a comment\n" + profiles.ShimProvider("spark354") + "\n",
		"spark353/com/nvidia/spark/rapids/shims/spark353/SparkShimServiceProvider.class": "x",
	})
	if got, err := profiles.ReadJarShims(listed); err != nil || strings.Join(got.Spark, ",") != "3.5.3" {
		t.Fatalf("shims %+v, %v", got, err)
	}
}

func writeZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// lockWithJar locks spark: <spark>, rapids: <rapids> (Scala 2.13) against a
// local HTTP artifact server whose jar carries shims for sparks, through
// devenv's real download cache.
func lockWithJar(t *testing.T, spark, rapids string, sparks []string) error {
	t.Helper()
	art := standin.Artifacts(t, standin.WithSpark(spark), standin.WithScala("2.13"), standin.WithRapids(rapids),
		standin.WithRapidsClassifiers(""), standin.WithRapidsShims(rapids, "2.13", sparks...))
	p := project(t, fmt.Sprintf("name: shims\nservices:\n  spark:\n    profile: spark-rapids\n    spark: %q\n    scala: \"2.13\"\n    rapids: %q\nmirrors:\n  maven: %q\n  apache: %q\n",
		spark, rapids, art.MavenURL(), art.ApacheURL()))
	cache := &fetch.Cache{Dir: t.TempDir()}
	_, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, cache, Options{Mirrors: mirrors(p)})
	return err
}

// TestLockProvesSparkFromTheJar serves stand-in jars with and without the
// locked Spark's shim and wants the lock to accept the first and refuse the
// second, naming the shims it found and the nearest fitting release.
func TestLockProvesSparkFromTheJar(t *testing.T) {
	if err := lockWithJar(t, "4.0.2", "26.06.0", []string{"3.5.8", "4.0.0", "4.0.1", "4.0.2", "4.1.1"}); err != nil {
		t.Fatalf("a jar with the spark402 shim was refused: %v", err)
	}
	// The catalog lists 4.0.2 for 26.04.2 (the page), but this jar lacks it.
	err := lockWithJar(t, "4.0.2", "26.04.2", []string{"3.5.8", "4.0.0", "4.0.1", "4.1.1"})
	if err == nil {
		t.Fatal("a jar without the spark402 shim was locked")
	}
	for _, want := range []string{"devenv.yaml:", "has no spark402 shim", "cannot run Spark 4.0.2",
		"shims for Spark 3.5.8, 4.0.0, 4.0.1, 4.1.1", "rapids: 26.04.1, the nearest release", "spark: 4.0.1, the nearest Spark this jar has"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
}

func TestAcceleratorFetchErrorNamesNVIDIAsRepository(t *testing.T) {
	res, err := profiles.Builtin().Resolve(profiles.Request{Profile: profiles.SparkRapids, Rapids: "25.08.0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var jar profiles.Artifact
	for _, a := range res.Artifacts {
		if a.Name == profiles.AcceleratorArtifact {
			jar = a
		}
	}
	if !strings.HasPrefix(jar.URL, "https://edge.urm.nvidia.com/artifactory/sw-spark-maven/com/nvidia/") {
		t.Fatalf("25.08.0 jar URL %s", jar.URL)
	}
	base := errors.New("HTTP 404")
	got := acceleratorFetchError(res, jar, sources.Mirrors{Maven: "http://127.0.0.1:1/maven2"}, base)
	if !errors.Is(got, base) || !strings.Contains(got.Error(), "not on Maven Central") || !strings.Contains(got.Error(), "rapids: 25.10.0 or later") {
		t.Fatalf("error %v", got)
	}
}
