// Package atomicfile is devenv's one way to replace a file: readers see the
// old bytes or the new ones, never a half-written file, and a crash leaves
// no partial file under the real name. It wraps github.com/moby/sys/atomicwriter
// (a temp file with a unique name beside the target, synced, then renamed).
package atomicfile

import (
	"bytes"
	"fmt"
	"os"

	"github.com/moby/sys/atomicwriter"
)

// WriteFile replaces path with data, mode perm. The directory must exist.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	if err := atomicwriter.WriteFile(path, data, perm); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

// WriteIfChanged is WriteFile, skipped when path already holds exactly data
// with mode perm (a file an older devenv wrote with a looser mode is
// rewritten). It reports whether it wrote.
func WriteIfChanged(path string, data []byte, perm os.FileMode) (bool, error) {
	if st, err := os.Stat(path); err == nil && st.Mode().Perm() == perm.Perm() {
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
			return false, nil
		}
	}
	if err := WriteFile(path, data, perm); err != nil {
		return false, err
	}
	return true, nil
}
