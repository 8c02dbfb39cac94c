package maven

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/maven/maventest"
)

const central = "https://repo1.maven.org/maven2"

func resolve(t *testing.T, srv *maventest.Server, o Options, coords ...string) *Result {
	t.Helper()
	var roots []Root
	for _, c := range coords {
		co, err := ParseCoord(c)
		if err != nil {
			t.Fatal(err)
		}
		roots = append(roots, Root{Coord: co, From: "test"})
	}
	o.Repo, o.Fetch = central, srv.URL
	res, err := Resolve(t.Context(), HTTP{Client: http.DefaultClient}, roots, o)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	return res
}

func names(res *Result) []string {
	var out []string
	for _, j := range res.Jars {
		out = append(out, j.Coord.String()+" "+j.Scope)
	}
	return out
}

// TestResolveRealPOMs resolves coordinates prod jobs pass to --packages,
// over POMs modelled on the ones Maven Central publishes (see
// testdata/SOURCES.md): parents, properties, dependencyManagement from the
// parent, test/provided scopes, optional dependencies, exclusions
// inherited from dependencyManagement, and what Spark provides.
func TestResolveRealPOMs(t *testing.T) {
	srv := maventest.Serve(t, "testdata/repo")
	cases := []struct {
		coords []string
		want   []string
	}{
		{[]string{"org.apache.hadoop:hadoop-aws:3.3.4"}, []string{
			"org.apache.hadoop:hadoop-aws:3.3.4 compile",
			"com.amazonaws:aws-java-sdk-bundle:1.12.262 compile", // version from hadoop-project's dependencyManagement
			"org.wildfly.openssl:wildfly-openssl:1.0.7.Final runtime",
			"org.wildfly.openssl:wildfly-openssl-java:1.0.7.Final runtime", // compile under runtime stays runtime
		}},
		{[]string{"io.delta:delta-spark_2.12:3.2.0"}, []string{
			"io.delta:delta-spark_2.12:3.2.0 compile",
			"io.delta:delta-storage:3.2.0 compile",
			"org.antlr:antlr4-runtime:4.9.3 compile",
		}},
		{[]string{"org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.5.0"}, []string{
			"org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.5.0 compile",
		}},
		{[]string{"com.databricks:spark-xml_2.13:0.18.0", "commons-io:commons-io:2.11.0"}, []string{
			"com.databricks:spark-xml_2.13:0.18.0 compile",
			"commons-io:commons-io:2.11.0 compile", // declared at depth 1: wins over spark-xml's 2.15.1
			"org.glassfish.jaxb:txw2:3.0.2 compile",
			"org.apache.ws.xmlschema:xmlschema-core:2.3.1 compile", // packaging bundle is a jar
		}},
	}
	for _, tc := range cases {
		t.Run(tc.coords[0], func(t *testing.T) {
			res := resolve(t, srv, Options{JDK: "17", Exclude: SparkProvided}, tc.coords...)
			if got := names(res); !slices.Equal(got, tc.want) {
				t.Errorf("jars:\n got  %q\n want %q\nnotes: %q", got, tc.want, res.Notes)
			}
			for _, j := range res.Jars {
				if !strings.HasPrefix(j.URL, central+"/") || !strings.HasSuffix(j.URL, "/"+j.File()) {
					t.Errorf("%s: URL %s is not its file in Maven Central", j.Coord, j.URL)
				}
			}
		})
	}
}

// TestResolveMediation pins Maven's rules on a written graph: imported
// BOMs (and a BOM imported by a BOM) give versions, the nearest version
// wins, exclusions cut subtrees, optional dependencies of dependencies and
// runtime scope, classifiers, version ranges, relocations.
func TestResolveMediation(t *testing.T) {
	srv := maventest.Serve(t, "testdata/repo")
	srv.AddJar("org/example/native/1.0/native-1.0-linux-x86_64.jar")
	res := resolve(t, srv, Options{}, "org.example:app:1.0")
	want := []string{
		"org.example:app:1.0 compile",
		"org.example:a:1.0 compile", // version from the imported BOM
		"org.example:b:1.0 compile", // from the BOM the BOM imports
		"org.example:native:1.0:linux-x86_64 compile",
		"org.example:ranged:1.5 compile", // highest in [1.0,2.0)
		"org.example:rt:1.0 runtime",
		"org.example:c:1.0 compile", // a -> c 1.0 is nearer than b -> d -> c 2.0
		"org.example:d:1.0 compile",
		"org.example:new:1.0 compile", // org.example:old relocated
		"org.example:rt-dep:1.0 runtime",
	}
	got := names(res)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("jars:\n got  %q\n want %q\nnotes: %q", got, want, res.Notes)
	}
	for _, n := range []string{"org.example:c 2.0", "relocated to org.example:new:1.0"} {
		if !slices.ContainsFunc(res.Notes, func(s string) bool { return strings.Contains(s, n) }) {
			t.Errorf("no note says %q: %q", n, res.Notes)
		}
	}
	for _, j := range res.Jars {
		if j.Artifact == "native" && j.File() != "native-1.0-linux-x86_64.jar" {
			t.Errorf("classifier jar file %s", j.File())
		}
	}
}

func TestResolveErrors(t *testing.T) {
	srv := maventest.Serve(t, "testdata/repo")
	for _, tc := range []struct{ coord, want string }{
		{"org.example:app:1.0-SNAPSHOT", "SNAPSHOT"},
		{"org.example:ranged:[3.0,4.0)", "no released version in the range"},
	} {
		c, err := ParseCoord(tc.coord)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Resolve(t.Context(), HTTP{}, []Root{{Coord: c}}, Options{Repo: central, Fetch: srv.URL})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.coord, err, tc.want)
		}
	}
	// A jar without a POM resolves alone, with a note, as in Maven.
	res := resolve(t, srv, Options{}, "org.example:nopom:1.0")
	if len(res.Jars) != 1 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "no POM") {
		t.Errorf("jar without POM: %v %q", names(res), res.Notes)
	}
}

func TestParseCoordAndURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"io.delta:delta-spark_2.12:3.2.0", "io.delta:delta-spark_2.12:3.2.0"},
		{"com.nvidia:rapids-4-spark_2.12:24.06.0:cuda12", "com.nvidia:rapids-4-spark_2.12:24.06.0:cuda12"},
		{"org.example:native:jar:linux-x86_64:1.0", "org.example:native:1.0:linux-x86_64"},
	} {
		c, err := ParseCoord(tc.in)
		if err != nil || c.String() != tc.want {
			t.Errorf("ParseCoord(%q) = %v, %v; want %s", tc.in, c, err, tc.want)
		}
	}
	for _, bad := range []string{"delta", "a:b", "a:b:c:d:e:f", "a:b:../x", "a:b: "} {
		if _, err := ParseCoord(bad); err == nil {
			t.Errorf("ParseCoord(%q) accepted", bad)
		}
	}
	for _, tc := range []struct{ url, want string }{
		{"https://repo1.maven.org/maven2/com/nvidia/rapids-4-spark_2.12/24.06.0/rapids-4-spark_2.12-24.06.0.jar", "com.nvidia:rapids-4-spark_2.12:24.06.0"},
		{"https://repo.maven.apache.org/maven2/org/apache/hadoop/hadoop-aws/3.3.4/hadoop-aws-3.3.4.jar", "org.apache.hadoop:hadoop-aws:3.3.4"},
		{"https://nexus.corp/repository/maven-public/com/nvidia/rapids-4-spark_2.12/24.06.0/rapids-4-spark_2.12-24.06.0-cuda12.jar", "com.nvidia:rapids-4-spark_2.12:24.06.0:cuda12"},
		{"s3://bucket/jars/foo-1.0.jar", ""},
	} {
		c, ok := FromURL(tc.url)
		got := ""
		if ok {
			got = c.String()
		}
		if got != tc.want {
			t.Errorf("FromURL(%s) = %q, want %q", tc.url, got, tc.want)
		}
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct{ artifact, scala, spark string }{
		{"iceberg-spark-runtime-3.5_2.12", "2.12", "3.5"},
		{"hudi-spark3.4-bundle_2.12", "2.12", "3.4"},
		{"delta-spark_2.13", "2.13", ""},
		{"rapids-4-spark_2.12", "2.12", ""},
		{"spark-xml_2.12", "2.12", ""},
		{"hadoop-aws", "", ""},
		{"spark-3.5", "", "3.5"},
	} {
		c := Coord{Artifact: tc.artifact}
		if c.ScalaLine() != tc.scala || c.SparkLine() != tc.spark {
			t.Errorf("%s: scala %q spark %q, want %q %q", tc.artifact, c.ScalaLine(), c.SparkLine(), tc.scala, tc.spark)
		}
	}
}
