package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/devenv-dev/devenv/test/standin"
)

// TestLockRefusesAJarWithoutTheSparkShim serves the pinned RAPIDS
// Accelerator release as a stand-in jar whose shims are the catalog's list
// without the locked Spark: devenv lock downloads it, reads its shims and
// refuses, naming what the jar has.
func TestLockRefusesAJarWithoutTheSparkShim(t *testing.T) {
	t.Parallel()
	shims := slices.DeleteFunc(profiles.Builtin().AcceleratorSpark(rapidsVersion, "2.12"), func(v string) bool { return v == sparkVersion })
	w := newWorld(t, standin.WithRapidsShims(rapidsVersion, "2.12", shims...))
	dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids\n    spark: \""+sparkVersion+"\"\n    rapids: \""+rapidsVersion+"\"\n    gpu: optional\n", nil)
	r := w.run(t, dir, "lock")
	if r.Code != 2 || !strings.Contains(r.Stderr, "has no "+profiles.ShimID(sparkVersion)+" shim") || !strings.Contains(r.Stderr, "the jar carries shims for Spark "+shims[0]) {
		t.Fatalf("lock of a jar without the Spark %s shim: exit %d\n%s", sparkVersion, r.Code, r.Stderr)
	}
	if _, err := lock.Read(filepath.Join(dir, "devenv.lock")); err == nil {
		t.Error("a refused lock was written")
	}
}

// TestLockOfSpark403PicksAReleaseThatSupportsIt locks spark: "4.0.3" with no
// RAPIDS Accelerator pinned: the lock picks the catalog's newest release for
// it (26.06.0's page named 4.0.3, its jar has no such shim), and its jar's
// shims prove it.
func TestLockOfSpark403PicksAReleaseThatSupportsIt(t *testing.T) {
	t.Parallel()
	want := newestRapidsFor(profiles.Request{Spark: "4.0.3"})
	if !slices.Contains(profiles.Builtin().AcceleratorSpark(want, "2.13"), "4.0.3") || want == "26.06.0" {
		t.Fatalf("the catalog picks %s for Spark 4.0.3", want)
	}
	w := newWorld(t, standin.WithSpark("4.0.3"), standin.WithScala("2.13"), standin.WithRapids(want))
	base := strings.TrimPrefix(resolved(profiles.Request{Profile: profiles.SparkRapids, Spark: "4.0.3"}).BaseImage, "nvcr.io/")
	if _, ok := w.digests[base]; !ok {
		w.digests[base] = standin.Push(t, standin.Debian(t), w.registry+"/"+base)
	}
	dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids\n    spark: \"4.0.3\"\n    gpu: optional\n", nil)
	w.must(t, dir, "lock")
	lf, err := lock.Read(filepath.Join(dir, "devenv.lock"))
	if err != nil {
		t.Fatal(err)
	}
	if v := lf.Service("spark").Versions; v.Rapids != want || v.Spark != "4.0.3" || v.Scala != "2.13" {
		t.Fatalf("locked %+v, want RAPIDS Accelerator %s for Spark 4.0.3 with Scala 2.13", v, want)
	}
}
