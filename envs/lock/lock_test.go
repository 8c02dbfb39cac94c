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
	f, err := Generate(t.Context(), p, nil, profiles.Builtin(), pin, fetch, Options{Mirrors: mirrors(p)})
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
	again, _ := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{Mirrors: mirrors(p)})
	data2, _ := Marshal(again)
	if string(data) != string(data2) {
		t.Fatal("same input gave different locks")
	}
}

func TestRelockKeepsPinsAndUpgradeDropsThem(t *testing.T) {
	p := project(t, yamlText)
	prev, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{Mirrors: mirrors(p)})
	if err != nil {
		t.Fatal(err)
	}
	pin, fetch := &fakePinner{}, &fakeFetcher{}
	if _, err := Generate(t.Context(), p, prev, profiles.Builtin(), pin, fetch, Options{Mirrors: mirrors(p)}); err != nil {
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
    rapids: "25.12"
  b:
    profile: triton
    release: "19.01"
`)
	_, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{})
	if err == nil {
		t.Fatal("impossible requests locked")
	}
	msg := err.Error()
	for _, want := range []string{"devenv.yaml:4:", "25.10.0", "devenv.yaml:8:"} {
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
	_, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{fail: "rapids-4-spark"}, Options{Mirrors: mirrors(p)})
	if err == nil || !strings.Contains(err.Error(), "mismatch") || !strings.Contains(err.Error(), "spark") {
		t.Fatalf("want the checksum failure named, got %v", err)
	}
}

func TestWriteOnlyWhenChangedAndRead(t *testing.T) {
	p := project(t, yamlText)
	f, _ := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{Mirrors: mirrors(p)})
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
	if err := Check(p, back); err != nil {
		t.Fatalf("fresh lock reported stale: %v", err)
	}
	p2 := project(t, strings.Replace(yamlText, `"3.5.1"`, `"3.5.2"`, 1))
	var stale *StaleError
	if err := Check(p2, back); !errors.As(err, &stale) || !strings.Contains(err.Error(), `service "spark" asks for something else`) {
		t.Fatalf("edited devenv.yaml not detected, or the changed service not named: %v", err)
	}
	p3 := project(t, strings.Replace(yamlText, "name: demo\n", "name: demo\n# a comment\n", 1))
	if err := Check(p3, back); !errors.As(err, &stale) || strings.Contains(err.Error(), "asks for something else") {
		t.Fatalf("a comment-only edit is stale (the file changed) but names no service: %v", err)
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
	f, err := Generate(t.Context(), p, nil, profiles.Builtin(), pin, &fakeFetcher{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := f.Service("minio")
	if m == nil || m.Profile != ComposeProfile || m.Base == nil || m.Base.Ref != "minio/minio:RELEASE.2025-04-22T22-12-26Z" || !strings.HasPrefix(m.Base.Digest, "sha256:") {
		t.Fatalf("minio locked as %+v", m)
	}
	if f.Service("built") != nil {
		t.Error("a compose service that builds its own image was pinned")
	}
	if err := Check(p, f); err != nil {
		t.Fatalf("fresh lock with compose services: %v", err)
	}
	if err := os.WriteFile(composeFile, []byte("services:\n  minio:\n    image: minio/minio:latest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stale *StaleError
	if err := Check(p, f); !errors.As(err, &stale) {
		t.Fatalf("editing compose.yaml did not make the lock stale: %v", err)
	}
}
