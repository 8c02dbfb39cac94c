package goldenfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors, fatals []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Name() string              { return "TestX" }
func (r *recorder) Errorf(f string, a ...any) { r.errors = append(r.errors, f) }
func (r *recorder) Fatalf(f string, a ...any) { r.fatals = append(r.fatals, f) }
func (r *recorder) Fatal(a ...any)            { r.fatals = append(r.fatals, "fatal") }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b.txt")
	r := &recorder{TB: t}
	Check(r, path, []byte("x"))
	if len(r.fatals) != 1 {
		t.Fatalf("a missing golden file must fail: %v", r.fatals)
	}
	*update = true
	Check(r, path, []byte("x\n"))
	*update = false
	if b, _ := os.ReadFile(path); string(b) != "x\n" {
		t.Fatalf("-update wrote %q", b)
	}
	r = &recorder{TB: t}
	Check(r, path, []byte("x\n"))
	if len(r.errors)+len(r.fatals) != 0 {
		t.Fatalf("equal content failed: %v %v", r.errors, r.fatals)
	}
	Check(r, path, []byte("y\n"))
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "differs") {
		t.Fatalf("different content passed: %v", r.errors)
	}
	r = &recorder{TB: t}
	*update = true
	JSON(r, path, map[string]int{"n": 1})
	*update = false
	if b, _ := os.ReadFile(path); string(b) != "{\n  \"n\": 1\n}\n" {
		t.Fatalf("JSON wrote %q", b)
	}
}
