package loader

import (
	"path/filepath"
	"testing"
)

// BenchmarkCommandQuestions is what `devenv up` asks of the stack
// fixture's compose files (the lock check every profile, the plan and
// the GPU preflight's port checks the active ones), answered by one load
// per question as before Files, and by one Files.
func BenchmarkCommandQuestions(b *testing.B) {
	dir, err := filepath.Abs(filepath.Join("testdata", "stack"))
	if err != nil {
		b.Fatal(err)
	}
	files := []string{filepath.Join(dir, "compose.yaml")}
	questions := [][]string{{"*"}, nil, nil}
	b.Run("a load per question", func(b *testing.B) {
		for b.Loop() {
			for _, sel := range questions {
				if _, err := Load(b.Context(), files, dir, "demo", sel); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("one Files", func(b *testing.B) {
		for b.Loop() {
			f := NewFiles(files, dir, "demo")
			for _, sel := range questions {
				if _, err := f.Services(b.Context(), sel); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
