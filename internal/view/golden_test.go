package view

import (
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
)

// golden compares got with testdata/<name>.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}
