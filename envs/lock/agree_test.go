package lock

import (
	"errors"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/profiles"
)

const agreeYAML = `name: demo
services:
  spark:
    profile: spark-rapids
    spark: "3.5.1"
    rapids: "25.06.0"
    jars: ["io.delta:delta-spark_2.12:3.2.0"]
  db:
    profile: image
    image: postgres:16
`

func freshLock(t *testing.T, text string) (*File, []byte) {
	t.Helper()
	p := project(t, text)
	f, err := Generate(t.Context(), p, nil, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
	if err != nil {
		t.Fatal(err)
	}
	data, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return f, data
}

// TestCheckAgainstFindsWhatTheCatalogContradicts: each hand edit that keeps
// the lock's inputs and hashes intact is found by comparing the entry with
// the catalog's resolution, and names the field.
func TestCheckAgainstFindsWhatTheCatalogContradicts(t *testing.T) {
	_, data := freshLock(t, agreeYAML)
	p := project(t, agreeYAML)
	fresh, err := Parse("devenv.lock", data)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckAgainst(t.Context(), p, fresh, profiles.Builtin()); err != nil {
		t.Fatalf("a fresh lock: %v", err)
	}
	tests := []struct{ name, old, new, want string }{
		{"artifact URL swapped", `"url": "https://repo1.maven.org/maven2/com/nvidia/rapids-4-spark`, `"url": "https://evil.example/maven2/com/nvidia/rapids-4-spark`, "url is \"https://evil.example/"},
		{"artifact file renamed", `"file": "rapids-4-spark_2.12-25.06.0.jar"`, `"file": "rapids-4-spark_2.12-25.06.0-patched.jar"`, "file is \"rapids-4-spark_2.12-25.06.0-patched.jar\""},
		{"version edited, artifacts left", `"rapids": "25.06.0"`, `"rapids": "25.04.0"`, "versions.rapids is \"25.04.0\""},
		{"base image swapped", `"ref": "postgres:16"`, `"ref": "postgres:15"`, "base.ref is \"postgres:15\""},
		{"jar artifact removed", `"name": "jar:io.delta:delta-spark_2.12:3.2.0"`, `"name": "jar:io.delta:other_2.12:3.2.0"`, "is missing from the lock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(string(data), tt.old) {
				t.Fatalf("%q is not in the lock:\n%s", tt.old, data)
			}
			i := strings.LastIndex(string(data), tt.old) // the entry's own field, after its inputs
			f, err := Parse("devenv.lock", []byte(string(data)[:i]+tt.new+string(data)[i+len(tt.old):]))
			if err != nil {
				t.Fatal(err)
			}
			err = CheckAgainst(t.Context(), p, f, profiles.Builtin())
			var ie *IntegrityError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("CheckAgainst = %v, want an integrity error with %q", err, tt.want)
			}
			if services, all, ok := Damaged(err); !ok || all || len(services) != 1 {
				t.Errorf("Damaged = %v, %v, %v; want the one service", services, all, ok)
			}
		})
	}
}

// TestJupyterToggleMakesTheLockStale: jupyter is not an input, but the lock
// installs JupyterLab exactly when it is on.
func TestJupyterToggleMakesTheLockStale(t *testing.T) {
	_, data := freshLock(t, agreeYAML)
	off := strings.Replace(agreeYAML, `rapids: "25.06.0"`, "rapids: \"25.06.0\"\n    jupyter: false", 1)
	f, err := Parse("devenv.lock", data)
	if err != nil {
		t.Fatal(err)
	}
	err = CheckAgainst(t.Context(), project(t, off), f, profiles.Builtin())
	var stale *StaleError
	if !errors.As(err, &stale) || !strings.Contains(err.Error(), "jupyter is off in devenv.yaml, but the lock installs JupyterLab") {
		t.Fatalf("jupyter turned off: %v, want a stale lock saying so", err)
	}
	_, offData := freshLock(t, off)
	f, err = Parse("devenv.lock", offData)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckAgainst(t.Context(), project(t, agreeYAML), f, profiles.Builtin()); err == nil || !strings.Contains(err.Error(), "jupyter is on") {
		t.Fatalf("jupyter turned on: %v, want a stale lock saying so", err)
	}
}

// TestDuplicateKeysAreRefused: encoding/json keeps the last of two equal
// keys; the lock names the key instead.
func TestDuplicateKeysAreRefused(t *testing.T) {
	_, data := freshLock(t, agreeYAML)
	text := strings.Replace(string(data), `"sha256": "`, `"sha256": "`+strings.Repeat("b", 64)+`", "sha256": "`, 1)
	_, err := Parse("devenv.lock", []byte(text))
	var inv *InvalidError
	if !errors.As(err, &inv) || !strings.Contains(err.Error(), "key services[1].artifacts[0].sha256 is given twice") {
		t.Fatalf("Parse = %v, want the duplicated key named", err)
	}
	if _, all, ok := Damaged(err); !ok || !all {
		t.Error("a lock that cannot be read is damaged as a whole")
	}
	top := strings.Replace(string(data), `"version": 1,`, `"version": 1, "version": 1,`, 1)
	if _, err := Parse("devenv.lock", []byte(top)); err == nil || !strings.Contains(err.Error(), "key version is given twice") {
		t.Fatalf("a top-level duplicate: %v", err)
	}
}

// TestRemovedPinReturnsTheDefault: a version devenv.yaml pinned and no
// longer does is resolved again (not kept from the lock), the note says
// what it is now, and Changes says what moved.
func TestRemovedPinReturnsTheDefault(t *testing.T) {
	pinned := strings.Replace(agreeYAML, `rapids: "25.06.0"`, "rapids: \"25.06.0\"\n    java: \"11\"", 1)
	prev, _ := freshLock(t, pinned)
	if prev.Service("spark").Versions.Java != "11" {
		t.Fatalf("java pinned to 11 locked %q", prev.Service("spark").Versions.Java)
	}
	p := project(t, agreeYAML)
	next, err := Generate(t.Context(), p, prev, profiles.Builtin(), &fakePinner{}, &fakeFetcher{}, Options{POMs: testPOMs{}, Mirrors: mirrors(p)})
	if err != nil {
		t.Fatal(err)
	}
	def, _ := freshLock(t, agreeYAML)
	want := def.Service("spark").Versions.Java
	if got := next.Service("spark").Versions.Java; got != want || got == "11" {
		t.Fatalf("java after removing the pin = %q, want the default %q", got, want)
	}
	if !strings.Contains(strings.Join(next.Notes, "\n"), "java is no longer pinned (was 11): \""+want+"\" is the default now") {
		t.Errorf("notes do not say what the unpinned java became: %q", next.Notes)
	}
	changes := strings.Join(Changes(prev, next), "\n")
	if !strings.Contains(changes, "service spark: java 11 -> "+want) {
		t.Errorf("changes do not say java moved: %q", changes)
	}
	if got := Changes(nil, next); len(got) != 2 || !strings.Contains(got[0], "added") {
		t.Errorf("a first lock's changes: %q", got)
	}
}
