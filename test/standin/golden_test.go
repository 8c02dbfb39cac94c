package standin

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ (go test ./test/standin/ -run TestName -update)")

// golden compares got with testdata/<name>, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file: %v (create it with: go test ./test/standin/ -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs from the output; if the change is intended, run: go test ./test/standin/ -run '%s' -update\n--- got:\n%s\n--- want:\n%s", path, t.Name(), got, want)
	}
}
