// Package goldenfile compares test output with files kept under a
// package's testdata/ and, with `go test -update`, rewrites them. Every
// package's golden tests share it, so the flag and the messages are the
// same everywhere.
package goldenfile

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/ instead of comparing with them")

// Updating reports whether the test run was asked to rewrite golden files.
func Updating() bool { return *update }

// Check compares got with the file at path (relative to the test's package
// directory); with -update it writes got there instead.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test -run '%s' -update` in this package to write it)", err, t.Name())
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from what the test produced (if the change is intended, rerun with -update and review the diff):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// JSON checks v as indented JSON with a final newline.
func JSON(t testing.TB, path string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatalf("encoding %s: %v", path, err)
	}
	Check(t, path, append(got, '\n'))
}
