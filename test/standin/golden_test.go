package standin

import (
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
)

// golden compares got with testdata/<name>, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), []byte(got))
}
