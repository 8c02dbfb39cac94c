//go:build !(linux || darwin)

package doctor

import (
	"fmt"
	"runtime"
)

// diskFree reports that free space cannot be read on this platform: the
// engine's data lives in Docker Desktop's VM, which this machine cannot
// statfs, and the disk check says so instead of guessing.
func diskFree(path string) (int64, error) {
	return 0, fmt.Errorf("free space of %s cannot be read on %s", path, runtime.GOOS)
}
