//go:build !linux

package standin

import "os"

// removeRootfs removes a debootstrap scratch directory.
func removeRootfs(dir string) { _ = os.RemoveAll(dir) }
