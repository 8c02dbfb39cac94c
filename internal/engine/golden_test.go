package engine

import (
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
)

// checkGolden compares v, as indented JSON, with testdata/name; with -update
// it rewrites the file instead.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	goldenfile.JSON(t, filepath.Join("testdata", name), v)
}
