package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/test/standin"
)

const lockYAML = `services:
  spark:
    profile: spark-rapids
    spark: "` + sparkVersion + `"
    rapids: "` + rapidsVersion + `"
    java: "17"
    jupyter: false
  serve:
    profile: triton
    release: "25.01"
  tool:
    profile: image
    image: nvcr.io/` + plainBase + `
`

// TestLockPinsThroughMirrors locks against an in-process registry and a
// local artifact server reached only through mirrors:, and checks every
// digest and checksum in the lock against what those servers hold.
func TestLockPinsThroughMirrors(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, lockYAML, nil)
	w.must(t, dir, "lock")
	lf, err := lock.Read(filepath.Join(dir, "devenv.lock"))
	if err != nil {
		t.Fatal(err)
	}
	wantBase := map[string]string{"spark": cudaBase, "serve": tritonBase, "tool": plainBase}
	for svc, ref := range wantBase {
		ls := lf.Service(svc)
		if ls == nil || ls.Base == nil {
			t.Fatalf("%s not locked with a base: %+v", svc, ls)
		}
		if ls.Base.Ref != "nvcr.io/"+ref || ls.Base.Digest != w.digests[ref] {
			t.Errorf("%s base = %s@%s, registry serves %s@%s", svc, ls.Base.Ref, ls.Base.Digest, ref, w.digests[ref])
		}
	}
	spark := lf.Service("spark")
	want := map[string]string{
		"spark":      standin.SparkPath(sparkVersion, "2.12"),
		"rapids-jar": standin.RapidsPath("2.12", rapidsVersion, ""),
	}
	if len(spark.Artifacts) != len(want) {
		t.Fatalf("artifacts %+v", spark.Artifacts)
	}
	for _, a := range spark.Artifacts {
		path := want[a.Name]
		if a.SHA256 != w.art.SHA256(path) {
			t.Errorf("%s sha256 %s, server file %s has %s", a.Name, a.SHA256, path, w.art.SHA256(path))
		}
		if strings.Contains(a.URL, "127.0.0.1") {
			t.Errorf("lock records the mirror URL %s instead of the canonical one", a.URL)
		}
	}
	for _, r := range w.art.Requests() {
		if !strings.HasPrefix(r, "/maven2/") && !strings.HasPrefix(r, "/apache/") {
			t.Errorf("unexpected request %s", r)
		}
	}

	// A fresh lock is a no-op and passes --check; an edit makes it stale (exit 5).
	before, _ := os.Stat(filepath.Join(dir, "devenv.lock"))
	if r := w.must(t, dir, "lock"); !strings.Contains(r.Stdout, "up to date") {
		t.Errorf("second lock: %s", r.Stdout)
	}
	after, _ := os.Stat(filepath.Join(dir, "devenv.lock"))
	if !before.ModTime().Equal(after.ModTime()) {
		t.Error("unchanged project rewrote devenv.lock")
	}
	w.must(t, dir, "lock", "--check")
	writeFile(t, dir, "devenv.yaml", strings.Replace(readFile(t, filepath.Join(dir, "devenv.yaml")), "release: \"25.01\"", "release: \"25.03\"", 1))
	if r := w.run(t, dir, "lock", "--check"); r.Code != 5 || !strings.Contains(r.Stderr, "stale") {
		t.Fatalf("lock --check after an edit: exit %d, %s", r.Code, r.Stderr)
	}
}

// TestLockRefusesAWrongChecksum serves a RAPIDS jar whose published sha1
// does not match; the lock must fail naming the file, and write nothing.
func TestLockRefusesAWrongChecksum(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.art.Corrupt(standin.RapidsPath("2.12", rapidsVersion, ""))
	dir, _ := w.project(t, lockYAML, nil)
	r := w.run(t, dir, "lock")
	if r.Code != 1 || !strings.Contains(r.Stderr, "mismatch") || !strings.Contains(r.Stderr, "rapids-4-spark_2.12-"+rapidsVersion) {
		t.Fatalf("want a clear checksum failure, got exit %d:\n%s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "devenv.lock")); !os.IsNotExist(err) {
		t.Fatal("a failed lock wrote devenv.lock")
	}
}

// TestInvalidFileReportsEverythingWithLines runs the binary on a file with
// several mistakes: all are reported with line and column, exit 2.
func TestInvalidFileReportsEverythingWithLines(t *testing.T) {
	t.Parallel()
	dir := standin.Project(t, map[string]string{"devenv.yaml": `services:
  spark:
    profile: spark-rapids
    volume: ["./data:/data"]
    ports: ["99999"]
    depends_on: [nope]
`})
	r := standin.Run(t, dir, nil, "config")
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", r.Code, r.Stderr)
	}
	for _, want := range []string{"devenv.yaml:4:5", `did you mean "volumes"`, "devenv.yaml:5:", "devenv.yaml:6:"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
}
