package lock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
	"github.com/devenv-dev/devenv/internal/maven"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

type fakePinner struct{ calls []string }

func (f *fakePinner) Digest(_ context.Context, ref string) (string, error) {
	f.calls = append(f.calls, ref)
	return "sha256:" + strings.Repeat(fmt.Sprintf("%x", len(ref)%16), 64), nil
}

type fakeFetcher struct {
	calls []string
	fail  string
}

func (f *fakeFetcher) Verified(_ context.Context, url, checksumURL, algo string) (string, string, error) {
	f.calls = append(f.calls, url)
	if f.fail != "" && strings.Contains(url, f.fail) {
		return "", "", errors.New("sha1 mismatch")
	}
	if strings.Contains(url, "/rapids-4-spark_") {
		return strings.Repeat("a", 64), standInJarFor(url), nil
	}
	return strings.Repeat("a", 64), "/cache/x", nil
}

const yamlText = `name: demo
services:
  spark:
    profile: spark-rapids
    spark: "3.5.1"
    rapids: "25.06.0"
    jars: ["io.delta:delta-spark_2.12:3.2.0"]
  serve:
    profile: triton
    release: "25.01"
  db:
    profile: image
    image: postgres:16
mirrors:
  registries: {nvcr.io: "127.0.0.1:5055"}
  maven: "http://127.0.0.1:8081/maven2"
`

func project(t *testing.T, text string) *spec.Project {
	t.Helper()
	dir := t.TempDir()
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(text), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGenerateGoldenAndDeterministic(t *testing.T) {
	p := project(t, yamlText)
	pin, fetch := &fakePinner{}, &fakeFetcher{}
	f, err := Generate(t.Context(), p, nil, profiles.Builtin(), pin, fetch, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
	if err != nil {
		t.Fatal(err)
	}
	data, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "demo.lock.golden", data)
	for _, c := range pin.calls {
		if strings.HasPrefix(c, "nvcr.io/") {
			t.Errorf("pinned %s without the registry mirror", c)
		}
	}
	for _, c := range fetch.calls {
		if strings.Contains(c, "repo1.maven.org") {
			t.Errorf("fetched %s without the maven mirror", c)
		}
	}
	again, _ := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
	data2, _ := Marshal(again)
	if string(data) != string(data2) {
		t.Fatal("same input gave different locks")
	}
}

func TestRelockKeepsPinsAndUpgradeDropsThem(t *testing.T) {
	p := project(t, yamlText)
	prev, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
	if err != nil {
		t.Fatal(err)
	}
	pin, fetch := &fakePinner{}, &fakeFetcher{}
	if _, err := Generate(t.Context(), p, prev, profiles.Builtin(), pin, fetch, Options{POMs: testPOMs{}, Mirrors: mirrors(p)}); err != nil {
		t.Fatal(err)
	}
	if len(pin.calls)+len(fetch.calls) != 0 {
		t.Fatalf("relock with a fresh lock used the network: %v %v", pin.calls, fetch.calls)
	}
	if _, err := Generate(t.Context(), p, prev, profiles.Builtin(), pin, fetch, Options{Upgrade: true, Services: []string{"serve"}, Mirrors: mirrors(p)}); err != nil {
		t.Fatal(err)
	}
	if len(pin.calls) != 1 || !strings.Contains(pin.calls[0], "tritonserver") || len(fetch.calls) != 0 {
		t.Fatalf("upgrade of serve pinned %v fetched %v", pin.calls, fetch.calls)
	}
}

func TestGenerateReportsEveryProblemAtItsLine(t *testing.T) {
	p := project(t, `services:
  a:
    profile: spark-rapids
    spark: "3.2.4"
    rapids: "26.02"
  b:
    profile: triton
    release: "19.01"
`)
	_, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}})
	if err == nil {
		t.Fatal("impossible requests locked")
	}
	msg := err.Error()
	for _, want := range []string{"devenv.yaml:4:", "25.12.0", "devenv.yaml:8:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if !spec.IsInvalid(err) {
		t.Errorf("resolution errors should be invalid-config errors (exit 2): %v", err)
	}
}

func TestChecksumFailureFailsTheLock(t *testing.T) {
	p := project(t, yamlText)
	_, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{fail: "rapids-4-spark"}, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
	if err == nil || !strings.Contains(err.Error(), "mismatch") || !strings.Contains(err.Error(), "spark") {
		t.Fatalf("want the checksum failure named, got %v", err)
	}
}

func TestWriteOnlyWhenChangedAndRead(t *testing.T) {
	p := project(t, yamlText)
	f, _ := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
	path := filepath.Join(t.TempDir(), FileName)
	if wrote, err := Write(path, f); err != nil || !wrote {
		t.Fatalf("first write: %v %v", wrote, err)
	}
	st1, _ := os.Stat(path)
	if wrote, err := Write(path, f); err != nil || wrote {
		t.Fatalf("second write of the same lock wrote: %v %v", wrote, err)
	}
	st2, _ := os.Stat(path)
	if !st1.ModTime().Equal(st2.ModTime()) {
		t.Fatal("unchanged lock was rewritten")
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(t.Context(), p, back); err != nil {
		t.Fatalf("fresh lock reported stale: %v", err)
	}
}

func TestParseRefusesBadLocks(t *testing.T) {
	good := `{"version":1,"project":"x","input_hash":"` + strings.Repeat("0", 64) + `","services":[]}`
	tests := []struct{ name, in, want string }{
		{"newer", `{"version": 9}`, "newer devenv"},
		{"not json", `{`, "not valid JSON"},
		{"unknown field", strings.Replace(good, `"services"`, `"extra":1,"services"`, 1), "unknown field"},
		{"bad digest", strings.Replace(good, `"services":[]`, `"services":[{"name":"a","profile":"image","versions":{},"base":{"ref":"x","digest":"sha256:zz"},"requires":{"min_driver":"","cuda":"","min_compute_capability":""}}]`, 1), "not pinned"},
		{"bad hash", strings.Replace(good, strings.Repeat("0", 64), "abc", 1), "input_hash"},
	}
	for _, tt := range tests {
		_, err := Parse("devenv.lock", []byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := Parse("devenv.lock", []byte(good)); err != nil {
		t.Fatalf("good lock refused: %v", err)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// TestComposeImagesArePinned: a compose service's image is pinned like a
// devenv service's base, and editing the compose file makes the lock stale.
func TestComposeImagesArePinned(t *testing.T) {
	dir := t.TempDir()
	composeFile := filepath.Join(dir, "compose.yaml")
	if err := os.WriteFile(composeFile, []byte("services:\n  minio:\n    image: minio/minio:RELEASE.2025-04-22T22-12-26Z\n  built:\n    build: .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM scratch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "name: demo\ncompose: [compose.yaml]\nservices:\n  db:\n    profile: image\n    image: postgres:16\n    depends_on: [minio]\n"
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(text), dir)
	if err != nil {
		t.Fatal(err)
	}
	pin := &fakePinner{}
	f, err := Generate(t.Context(), p, nil, profiles.Builtin(), pin, &fakeFetcher{}, Options{POMs: testPOMs{}})
	if err != nil {
		t.Fatal(err)
	}
	m := f.Service("minio")
	if m == nil || m.Profile != ComposeProfile || m.Base == nil || m.Base.Ref != "minio/minio:RELEASE.2025-04-22T22-12-26Z" || !strings.HasPrefix(m.Base.Digest, "sha256:") {
		t.Fatalf("minio locked as %+v", m)
	}
	if b := f.Service("built"); b == nil || b.Base != nil || len(b.BuildBases) != 0 {
		t.Errorf("a compose service that builds FROM scratch is locked as %+v, want an entry pinning nothing", b)
	}
	if err := Check(t.Context(), p, f); err != nil {
		t.Fatalf("fresh lock with compose services: %v", err)
	}
	if err := os.WriteFile(composeFile, []byte("services:\n  minio:\n    image: minio/minio:latest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stale *StaleError
	if err := Check(t.Context(), p, f); !errors.As(err, &stale) {
		t.Fatalf("editing compose.yaml did not make the lock stale: %v", err)
	}
}

// TestDriverRuleChoosesUnsetVersions locks an unpinned rapids service for
// a driver of the 580 branch and for none, and checks that each gets what
// the catalog resolves for that driver (read from the catalog, so a new
// release changes no expectation), that the notes name the rule, and that a
// relock keeps the pin while --upgrade moves it.
func TestDriverRuleChoosesUnsetVersions(t *testing.T) {
	p := project(t, "services:\n  nb:\n    profile: rapids\n")
	cudaFor := func(driver string) string {
		r, err := profiles.Builtin().Resolve(profiles.Request{Profile: profiles.Rapids, Driver: driver, DriverRule: "r"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r.CUDA
	}
	on580, unlimited := cudaFor("580.159.04"), cudaFor("")
	if on580 == unlimited {
		t.Fatalf("the catalog's newest RAPIDS CUDA (%s) runs on R580: this test needs one that does not", unlimited)
	}
	tests := []struct {
		name, driver, wantCUDA, wantNote string
	}{
		{"580 branch driver", "580.159.04", on580, `service "nb": driver rule: chose CUDA ` + on580 + ` for the test rule`},
		{"no limit", "", unlimited, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Driver: tc.driver}
			if tc.driver != "" {
				opts.DriverRule = "the test rule"
			}
			f, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Service("nb").Versions.CUDA; got != tc.wantCUDA {
				t.Errorf("CUDA %s, want %s", got, tc.wantCUDA)
			}
			notes := strings.Join(f.Notes, "\n")
			if tc.wantNote != "" && !strings.Contains(notes, tc.wantNote) || tc.wantNote == "" && strings.Contains(notes, "driver rule") {
				t.Errorf("notes %q, want %q", notes, tc.wantNote)
			}
		})
	}
	old, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{Driver: "580.159.04", DriverRule: "r"})
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := Generate(t.Context(), p, old, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{})
	up, _ := Generate(t.Context(), p, old, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{Upgrade: true})
	if kept.Service("nb").Versions.CUDA != on580 || up.Service("nb").Versions.CUDA != unlimited {
		t.Errorf("relock gave CUDA %s (want the pinned %s), --upgrade %s (want %s)", kept.Service("nb").Versions.CUDA, on580, up.Service("nb").Versions.CUDA, unlimited)
	}
}

// TestStaleOnlyForInputs edits devenv.yaml in one way per case: edits that
// change what the lock pins make it stale and name what changed; edits that
// do not (ports, env, conf, volumes, comments) leave it fresh.
func TestStaleOnlyForInputs(t *testing.T) {
	base := yamlText + `profiles:
  team:
    extends: spark-rapids
    env: {TEAM: a}
    conf: {spark.x: "1"}
    apt: [curl]
`
	base = strings.Replace(base, "  db:\n", "  etl:\n    profile: team\n  db:\n", 1)
	p := project(t, base)
	f, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, old, new string
		want           []string // empty: fresh
	}{
		{"comment", "name: demo\n", "name: demo\n# a comment\n", nil},
		{"ports", "    release: \"25.01\"\n", "    release: \"25.01\"\n    ports: [\"8000:8000\"]\n", nil},
		{"conf", "    jars: [", "    conf: {spark.sql.shuffle.partitions: \"64\"}\n    jars: [", nil},
		{"env and volumes", "    image: postgres:16\n", "    image: postgres:16\n    env: {A: b}\n    volumes: [\"./d:/d\"]\n", nil},
		{"custom env and conf", "env: {TEAM: a}\n    conf: {spark.x: \"1\"}", "env: {TEAM: b}\n    conf: {spark.x: \"2\"}", nil},
		{"mirrors", `maven: "http://127.0.0.1:8081/maven2"`, `maven: "http://127.0.0.1:9090/maven2"`, nil},
		{"version", `spark: "3.5.1"`, `spark: "3.5.2"`, []string{`service "spark": spark version changed from "3.5.1" to "3.5.2"`}},
		{"version added", `release: "25.01"`, "release: \"25.01\"\n    python: \"3.12\"", []string{`service "serve": python version changed from (unset) to "3.12"`}},
		{"image", "image: postgres:16", "image: postgres:17", []string{`service "db": image changed from "postgres:16" to "postgres:17"`}},
		{"jars", `jars: ["io.delta:delta-spark_2.12:3.2.0"]`, "jars: []", []string{`service "spark": jars changed from "io.delta:delta-spark_2.12:3.2.0" to (unset)`}},
		{"custom apt", "apt: [curl]", "apt: [curl, git]", []string{`service "etl": its custom profile "team" changed`}},
		{"profile", "    profile: triton\n", "    profile: rapids\n", []string{`service "serve": profile changed from "triton" to "rapids"`}},
		{"service added", "  db:\n", "  extra:\n    profile: image\n    image: redis:7\n  db:\n", []string{`service "extra" is not locked`}},
		{"service removed", "  serve:\n    profile: triton\n    release: \"25.01\"\n", "", []string{`service "serve" is locked but no longer in devenv.yaml`}},
		{"project", "name: demo\n", "name: other\n", []string{`project name is "other", the lock says "demo"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(base, c.old, c.new, 1)
			if text == base {
				t.Fatalf("the edit %q changed nothing", c.old)
			}
			err := Check(t.Context(), project(t, text), f)
			if len(c.want) == 0 {
				if err != nil {
					t.Fatalf("stale after an edit that pins nothing: %v", err)
				}
				return
			}
			var stale *StaleError
			if !errors.As(err, &stale) {
				t.Fatalf("want stale, got %v", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("reasons %q do not say %q", stale.Reasons, w)
				}
			}
		})
	}
}

// TestVerifyFindsHandEdits damages a generated lock in one way per case;
// Check must refuse each as inconsistent (not stale) and say what is wrong.
func TestVerifyFindsHandEdits(t *testing.T) {
	p := project(t, yamlText)
	gen := func() *File {
		f, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if err := Check(t.Context(), p, gen()); err != nil {
		t.Fatalf("a generated lock: %v", err)
	}
	spark := func(f *File) *Service { return f.Service("spark") }
	for _, c := range []struct {
		name string
		edit func(f *File)
		want string
	}{
		{"http artifact", func(f *File) { spark(f).Artifacts[0].URL = "http://evil.example/spark.tgz" }, `is not https and not under a configured mirror`},
		{"credentials in url", func(f *File) { spark(f).Artifacts[0].URL = "https://u:secret@repo.example/x.jar" }, "carries credentials"},
		{"not a url", func(f *File) { spark(f).Artifacts[0].URL = "spark.tgz" }, "is not a URL"},
		{"path in file name", func(f *File) { spark(f).Artifacts[1].File = "../../etc/passwd" }, "a file name has no directory"},
		{"bad base ref", func(f *File) { f.Service("db").Base.Ref = "Postgres:16!" }, "is not an image reference"},
		{"inputs edited", func(f *File) { f.Service("db").Inputs.Image = "postgres:17" }, "input_hash does not match its inputs"},
		{"summary edited", func(f *File) { f.InputHash = strings.Repeat("0", 64) }, "input_hash does not match the services' input hashes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := gen()
			c.edit(f)
			err := Check(t.Context(), p, f)
			var ie *IntegrityError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check = %v, want an IntegrityError saying %q", err, c.want)
			}
		})
	}
	// The maven mirror of devenv.yaml is a configured mirror: an http URL
	// under it is what a team locking against its own mirror may hold.
	f := gen()
	spark(f).Artifacts[2].URL = "http://127.0.0.1:8081/maven2/io/delta/x.jar"
	if err := Verify(f, mirrors(p)); err != nil {
		t.Errorf("a URL under the configured mirror: %v", err)
	}
}

// A lock written before services recorded their inputs is stale once (its
// hashes were computed differently), not damaged: up relocks it, lock
// --check exits 5.
func TestLockWithoutInputsIsStaleNotDamaged(t *testing.T) {
	p := project(t, yamlText)
	f, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Services {
		f.Services[i].Inputs = nil
		f.Services[i].InputHash = strings.Repeat("1", 64) // as an older devenv hashed
	}
	f.InputHash = strings.Repeat("2", 64)
	err = Check(t.Context(), p, f)
	var stale *StaleError
	if !errors.As(err, &stale) || !strings.Contains(err.Error(), `service "spark" asks for something else now`) {
		t.Fatalf("Check = %v, want stale", err)
	}
}

// TestComposeProfilesDoNotMakeTheLockStale: the lock pins the compose
// services of every profile, so enabling or disabling a compose profile
// (COMPOSE_PROFILES, --profile) leaves a fresh lock fresh, whichever
// profiles were active when it was written.
func TestComposeProfilesDoNotMakeTheLockStale(t *testing.T) {
	dir := t.TempDir()
	compose := "services:\n  minio:\n    image: minio/minio:latest\n  debugger:\n    image: busybox:1.36\n    profiles: [debug]\n"
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "name: demo\ncompose: [compose.yaml]\nservices:\n  db:\n    profile: image\n    image: postgres:16\n"
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(text), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, lockedWith := range []string{"", "debug"} {
		t.Setenv("COMPOSE_PROFILES", lockedWith)
		f, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}})
		if err != nil {
			t.Fatal(err)
		}
		if f.Service("debugger") == nil {
			t.Fatalf("locked with profiles %q: the debug profile's service is not pinned", lockedWith)
		}
		for _, active := range []string{"", "debug"} {
			t.Setenv("COMPOSE_PROFILES", active)
			if err := Check(t.Context(), p, f); err != nil {
				t.Errorf("locked with profiles %q, checked with %q: %v", lockedWith, active, err)
			}
		}
	}
}

// testPOMs serves the POMs of internal/maven's test repository (written
// after the ones Maven Central publishes) for any repository base.
type testPOMs struct{}

func (testPOMs) Get(_ context.Context, url string) ([]byte, error) {
	_, rel, ok := strings.Cut(url, "/maven2/")
	if !ok {
		return nil, fmt.Errorf("get %s: %w", url, maven.ErrNotFound)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "internal", "maven", "testdata", "repo", filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("get %s: %w", url, maven.ErrNotFound)
	}
	return data, err
}

// TestLockSaysWhichDriverRule: on data-center GPUs (the H200 hosts, driver
// 580.159.04) an unpinned rapids service locks RAPIDS's CUDA 13 image under
// the CUDA 13 family floor, and the notes name the data-center rule; on
// other GPUs the toolkit rule keeps CUDA 12 and says so.
func TestLockSaysWhichDriverRule(t *testing.T) {
	p := project(t, "services:\n  nb:\n    profile: rapids\n    rapids: \"26.08\"\n")
	tests := []struct {
		name                        string
		dataCenter                  bool
		wantCUDA, wantMin, wantNote string
	}{
		{"data-center GPUs", true, "13.", "580.65.06", "by the data-center rule"},
		{"other GPUs", false, "12.", "575.57.08", "by the toolkit rule"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{},
				Options{Driver: "580.159.04", DriverRule: "driver 580.159.04", DataCenter: tc.dataCenter})
			if err != nil {
				t.Fatal(err)
			}
			s := f.Service("nb")
			if !strings.HasPrefix(s.Versions.CUDA, tc.wantCUDA) || s.Requires.MinDriver != tc.wantMin {
				t.Errorf("CUDA %s needs %s, want %s* needing %s", s.Versions.CUDA, s.Requires.MinDriver, tc.wantCUDA, tc.wantMin)
			}
			if notes := strings.Join(f.Notes, "\n"); !strings.Contains(notes, tc.wantNote) {
				t.Errorf("notes %q do not say %q", notes, tc.wantNote)
			}
		})
	}
}
