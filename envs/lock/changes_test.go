package lock

import (
	"slices"
	"strings"
	"testing"
)

// TestChangesOfBuildBasesAndArtifacts: Changes names each build base and
// each artifact added, pinned again or dropped, the new ones in the new
// lock's order, then the dropped ones in the old lock's, and says nothing
// of one that did not change.
func TestChangesOfBuildBasesAndArtifacts(t *testing.T) {
	d := func(c string) string { return "sha256:" + strings.Repeat(c, 64) }
	jar := Artifact{Name: "rapids-jar", URL: "https://x/rapids-25.06.0.jar", File: "rapids-25.06.0.jar", SHA256: strings.Repeat("a", 64)}
	spark := Artifact{Name: "spark", URL: "https://x/spark-3.5.1.tgz", File: "spark-3.5.1.tgz", SHA256: strings.Repeat("b", 64)}
	tests := []struct {
		name     string
		was, now Service
		want     []string
	}{
		{"nothing changed", Service{BuildBases: []Image{{Ref: "busybox:1", Digest: d("1")}}, Artifacts: []Artifact{jar}},
			Service{BuildBases: []Image{{Ref: "busybox:1", Digest: d("1")}}, Artifacts: []Artifact{jar}}, nil},
		{"build bases added, pinned again and dropped",
			Service{BuildBases: []Image{{Ref: "alpine:3", Digest: d("1")}, {Ref: "busybox:1", Digest: d("2")}, {Ref: "debian:12", Digest: d("3")}}},
			Service{BuildBases: []Image{{Ref: "ubuntu:24.04", Digest: d("4")}, {Ref: "busybox:1", Digest: d("5")}, {Ref: "local:dev", Digest: d("6"), Local: true}}},
			[]string{
				"service app: builds FROM ubuntu:24.04@" + d("4"),
				"service app: build base busybox:1 digest " + short(d("2")) + " -> " + short(d("5")),
				"service app: builds FROM " + d("6"),
				"service app: no longer builds FROM alpine:3",
				"service app: no longer builds FROM debian:12",
			}},
		{"artifacts added, moved, re-hashed and removed",
			Service{Artifacts: []Artifact{jar, spark, {Name: "old", File: "old.tgz"}}},
			Service{Artifacts: []Artifact{
				{Name: "rapids-jar", URL: "https://x/rapids-25.08.0.jar", File: "rapids-25.08.0.jar", SHA256: jar.SHA256},
				{Name: "spark", URL: spark.URL, File: spark.File, SHA256: strings.Repeat("c", 64)},
				{Name: "new", File: "new.tgz"},
			}},
			[]string{
				"service app: artifact rapids-jar rapids-25.06.0.jar -> rapids-25.08.0.jar",
				"service app: artifact spark sha256 " + short(spark.SHA256) + " -> " + short(strings.Repeat("c", 64)),
				"service app: artifact new added (new.tgz)",
				"service app: artifact old removed",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.was.Name, tt.now.Name = "app", "app"
			got := Changes(&File{Services: []Service{tt.was}}, &File{Services: []Service{tt.now}})
			if !slices.Equal(got, tt.want) {
				t.Errorf("Changes =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
