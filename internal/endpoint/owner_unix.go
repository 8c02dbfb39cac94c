//go:build unix

package endpoint

import (
	"os"
	"syscall"
)

// ownedByMe says whether this user owns the file.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
