//go:build linux

package standin

import (
	"bufio"
	"os"
	"sort"
	"strings"
	"syscall"
)

// removeRootfs removes a debootstrap scratch directory, first unmounting
// anything debootstrap left mounted inside it (it mounts /proc and /sys in
// the target and may leave them on failure). When a mount cannot be undone it
// leaves the directory alone: removing files through a bind mount would
// delete the host's own files.
func removeRootfs(dir string) {
	for _, m := range mountsUnder(dir) {
		_ = syscall.Unmount(m, syscall.MNT_DETACH)
	}
	if len(mountsUnder(dir)) > 0 {
		return
	}
	_ = os.RemoveAll(dir)
}

// mountsUnder lists mount points below dir, deepest first.
func mountsUnder(dir string) []string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return []string{dir} // cannot tell: act as if something is mounted
	}
	defer func() { _ = f.Close() }()
	var found []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		mp := unescapeMountPath(fields[4])
		if strings.HasPrefix(mp, dir+"/") {
			found = append(found, mp)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(found)))
	return found
}

// unescapeMountPath undoes the octal escapes (\040 for space) of mountinfo.
func unescapeMountPath(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var v byte
			ok := true
			for _, c := range s[i+1 : i+4] {
				if c < '0' || c > '7' {
					ok = false
					break
				}
				v = v*8 + byte(c-'0')
			}
			if ok {
				b.WriteByte(v)
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
