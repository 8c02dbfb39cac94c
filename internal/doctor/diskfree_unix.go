//go:build linux || darwin

package doctor

import (
	"os"
	"path/filepath"
	"syscall"
)

// diskFree returns the bytes available to unprivileged users on the file
// system holding path, or the nearest existing parent of path.
func diskFree(path string) (int64, error) {
	for {
		var st syscall.Statfs_t
		err := syscall.Statfs(path, &st)
		if err == nil {
			return int64(st.Bavail) * int64(st.Bsize), nil
		}
		parent := filepath.Dir(path)
		if !os.IsNotExist(err) || parent == path {
			return 0, &os.PathError{Op: "statfs", Path: path, Err: err}
		}
		path = parent
	}
}
