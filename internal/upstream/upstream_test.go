package upstream

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/devenv-dev/devenv/internal/httpx"
	ireg "github.com/devenv-dev/devenv/internal/registry"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
)

// mavenMetadata is laid out as Maven Central's artifact-level
// maven-metadata.xml (groupId, artifactId, versioning/versions/version).
func mavenMetadata(artifact string, versions ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metadata>\n  <groupId>com.nvidia</groupId>\n  <artifactId>%s</artifactId>\n  <versioning>\n    <latest>%s</latest>\n    <release>%s</release>\n    <versions>\n", artifact, versions[len(versions)-1], versions[len(versions)-1])
	for _, v := range versions {
		fmt.Fprintf(&b, "      <version>%s</version>\n", v)
	}
	b.WriteString("    </versions>\n    <lastUpdated>20261130120000</lastUpdated>\n  </versioning>\n</metadata>\n")
	return b.String()
}

// apacheIndex is laid out as archive.apache.org/dist/spark/'s Apache
// directory listing.
func apacheIndex(dirs ...string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 3.2 Final//EN\">\n<html>\n <head>\n  <title>Index of /dist/spark</title>\n </head>\n <body>\n<h1>Index of /dist/spark</h1>\n<pre>")
	for _, d := range dirs {
		fmt.Fprintf(&b, "<img src=\"/icons/folder.gif\" alt=\"[DIR]\"> <a href=\"%s/\">%s/</a>     2026-07-14 10:00    -   \n", d, d)
	}
	b.WriteString("<a href=\"KEYS\">KEYS</a>\n</pre>\n</body></html>\n")
	return b.String()
}

func publisher(t *testing.T) *httptest.Server {
	t.Helper()
	files := map[string]string{
		"/maven2/com/nvidia/rapids-4-spark_2.12/maven-metadata.xml": mavenMetadata("rapids-4-spark_2.12", "25.08.0", "26.10.0", "26.10.1", "26.12.0-SNAPSHOT", "26.12.0"),
		"/maven2/com/nvidia/rapids-4-spark_2.13/maven-metadata.xml": mavenMetadata("rapids-4-spark_2.13", "26.08.1", "26.10.0"),
		"/apache/spark/": apacheIndex("spark-2.4.8", "spark-3.5.9", "spark-3.5.10", "spark-4.1.0", "spark-4.2.0", "spark-4.2.1", "spark-4.3.0", "spark-connect-go-0.1.0"),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// ngc is an in-process registry (go-containerregistry) standing in for
// nvcr.io, with the tags given.
func ngc(t *testing.T, tags map[string][]string) string {
	t.Helper()
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	img, err := random.Image(64, 1)
	if err != nil {
		t.Fatal(err)
	}
	for repo, ts := range tags {
		for _, tag := range ts {
			ref, err := name.ParseReference(host + "/" + repo + ":" + tag)
			if err != nil {
				t.Fatal(err)
			}
			if err := remote.Write(ref, img); err != nil {
				t.Fatal(err)
			}
		}
	}
	return host
}

func TestCheckNamesWhatTheCatalogLacks(t *testing.T) {
	pub := publisher(t)
	reg := ngc(t, map[string][]string{
		"nvidia/tritonserver":  {"26.08-py3", "26.10-py3", "26.10-vllm-python-py3", "26.12-py3", "26.12-py3-sdk"},
		"nvidia/rapidsai/base": {"26.06-cuda12-py3.13", "26.08-cuda13-py3.14", "26.10-cuda13-py3.14"},
	})
	known := profiles.Known{
		Accelerator: []string{"25.08.0", "26.08.1", "26.10.0"},
		Spark:       []string{"3.5.9", "4.1.1", "4.2.0"},
		Rapids:      []string{"26.06", "26.08"},
		Triton:      []string{"26.08", "26.10"},
	}
	m := sources.Mirrors{Maven: pub.URL + "/maven2", Apache: pub.URL + "/apache", Registries: map[string]string{"nvcr.io": reg}}
	rep := Check(t.Context(), known, Sources{Mirrors: m, HTTP: httpx.Client(httpx.DefaultLimits()), Tags: ireg.Pinner{}})
	if rep.Offline || len(rep.Unreachable) != 0 {
		t.Fatalf("listings unread: %+v", rep.Unreachable)
	}
	var got []string
	for _, f := range rep.Newer {
		if f.Note != NotInCatalog {
			t.Errorf("%+v does not say %q", f, NotInCatalog)
		}
		got = append(got, strings.SplitN(f.Product, " ", 2)[0]+" "+f.Version)
	}
	want := []string{
		"RAPIDS 26.10.1", "RAPIDS 26.12.0", // Scala 2.12: a patch after the newest of its line, a new month; no SNAPSHOT
		"Apache 3.5.10", "Apache 4.2.1", "Apache 4.3.0", // 4.1.0 and 2.4.8 are older than what the catalog knows of their lines
		"Triton 26.12",
		"RAPIDS 26.10",
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("newer:\n got %v\nwant %v", got, want)
	}
	if text := rep.Text(); !strings.Contains(text, "Apache Spark 4.3.0: not in devenv's catalog yet (listed at "+pub.URL+"/apache/spark/)") {
		t.Errorf("text:\n%s", text)
	}
}

func TestCheckWithoutNetworkSaysSo(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	_ = l.Close()
	m := sources.Mirrors{Maven: "http://" + closed + "/maven2", Apache: "http://" + closed + "/apache", Registries: map[string]string{"nvcr.io": closed}}
	lim := httpx.DefaultLimits()
	lim.Attempts = 1
	rep := Check(t.Context(), profiles.Builtin().Known(), Sources{Mirrors: m, HTTP: httpx.Client(lim), Tags: ireg.Pinner{Transport: httpx.Transport(lim)}})
	if !rep.Offline || len(rep.Newer) != 0 || len(rep.Unreachable) != 5 {
		t.Fatalf("report %+v", rep)
	}
	if !strings.Contains(rep.Text(), "could not read any publisher's listing") {
		t.Errorf("text:\n%s", rep.Text())
	}
}

func TestNotesForLockUpgrade(t *testing.T) {
	rep := Report{Newer: []Finding{{Product: "Apache Spark", Version: "4.3.0", Source: "x", Note: NotInCatalog}}}
	notes := rep.Notes()
	if len(notes) != 1 || !strings.Contains(notes[0], "Apache Spark 4.3.0 is out, not in devenv's catalog yet") {
		t.Fatalf("notes %q", notes)
	}
	if n := (Report{Offline: true, Newer: []Finding{}}).Notes(); len(n) != 0 {
		t.Fatalf("an offline check adds notes %q", n)
	}
}
