//go:build !(linux || darwin)

package doctor

import (
	"fmt"
	"runtime"
)

// diskFree is not implemented here: the engine's data lives in Docker
// Desktop's VM, which this machine cannot statfs.
func diskFree(path string) (int64, error) {
	return 0, fmt.Errorf("free space of %s cannot be read on %s", path, runtime.GOOS)
}
