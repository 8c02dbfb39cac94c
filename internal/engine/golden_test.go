package engine

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares v, as indented JSON, with testdata/name; with -update
// it rewrites the file instead.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatalf("encoding %s: %v", name, err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("writing %s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v (run `go test ./internal/engine/ -run %s -update` to create it)", path, err, t.Name())
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from what the test produced:\n%s\nIf the change is intended, run `go test ./internal/engine/ -run %s -update` and review the diff.", path, got, t.Name())
	}
}
