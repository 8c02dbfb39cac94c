package profiles

import (
	"strings"
	"testing"
)

func TestMavenJar(t *testing.T) {
	cases := []struct {
		coords, url, file, name, err string
	}{
		{coords: "org.postgresql:postgresql:42.7.4",
			url:  "https://repo1.maven.org/maven2/org/postgresql/postgresql/42.7.4/postgresql-42.7.4.jar",
			file: "postgresql-42.7.4.jar", name: "jar:org.postgresql:postgresql:42.7.4"},
		{coords: "com.nvidia:rapids-4-spark_2.13:26.06.0:cuda13",
			url:  "https://repo1.maven.org/maven2/com/nvidia/rapids-4-spark_2.13/26.06.0/rapids-4-spark_2.13-26.06.0-cuda13.jar",
			file: "rapids-4-spark_2.13-26.06.0-cuda13.jar", name: "jar:com.nvidia:rapids-4-spark_2.13:26.06.0:cuda13"},
		{coords: "org.x:y", err: "want group:artifact:version[:classifier]"},
		{coords: "a:b:c:d:e", err: "want group:artifact:version[:classifier]"},
		{coords: "a::1.0", err: `artifact ""`},
		{coords: "a:b:../1", err: `version "../1"`},
		{coords: "a b:c:1", err: `group "a b"`},
		{coords: "a:b:1:..", err: `classifier ".."`},
	}
	for _, tc := range cases {
		t.Run(tc.coords, func(t *testing.T) {
			a, err := MavenJar(tc.coords)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := Artifact{Name: tc.name, URL: tc.url, ChecksumURL: tc.url + ".sha1", ChecksumAlgo: "sha1", File: tc.file}
			if a != want {
				t.Fatalf("got %+v\nwant %+v", a, want)
			}
		})
	}
}

func TestSparkDist(t *testing.T) {
	cases := []struct{ spark, scala, dist, file string }{
		{"3.5.8", "2.12", "hadoop3", "spark-3.5.8-bin-hadoop3.tgz"},
		{"3.5.8", "2.13", "hadoop3", "spark-3.5.8-bin-hadoop3-scala2.13.tgz"},
		{"4.0.3", "2.13", "hadoop3", "spark-4.0.3-bin-hadoop3.tgz"},
		{"3.2.4", "2.12", "hadoop3.2", "spark-3.2.4-bin-hadoop3.2.tgz"},
	}
	for _, tc := range cases {
		a := sparkDist(tc.spark, tc.scala, tc.dist)
		url := "https://archive.apache.org/dist/spark/spark-" + tc.spark + "/" + tc.file
		if a.URL != url || a.File != tc.file || a.ChecksumURL != url+".sha512" || a.ChecksumAlgo != "sha512" {
			t.Errorf("%v: got %+v", tc, a)
		}
	}
}
