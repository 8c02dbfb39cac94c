//go:build !linux

package standin

import "testing"

// RunAs runs devenv as another user; only on Linux.
func RunAs(t testing.TB, uid, gid int, dir string, env []string, args ...string) Result {
	t.Skip("standin: running devenv as another user needs Linux")
	return Result{}
}

// OwnedDir needs Linux.
func OwnedDir(t testing.TB, uid, gid int) string {
	t.Skip("standin: directories of another user need Linux")
	return ""
}

// ChownTree needs Linux.
func ChownTree(t testing.TB, dir string, uid, gid int) {
	t.Skip("standin: directories of another user need Linux")
}
