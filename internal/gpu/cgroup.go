package gpu

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxCgroupFile bounds how much of a /proc/<pid>/cgroup file is read.
const maxCgroupFile = 64 << 10

// ContainerOfPID returns the id of the Docker container that process pid
// runs in, read from <procRoot>/<pid>/cgroup (procRoot is "/proc" outside
// tests). It understands cgroup v1 (`/docker/<id>`) and v2 with either
// cgroup driver (`/docker/<id>`, `/system.slice/docker-<id>.scope`),
// including nested and rootless paths, where the innermost id wins. It
// returns false for processes outside containers and unreadable files.
func ContainerOfPID(procRoot string, pid int) (string, bool) {
	if pid <= 0 {
		return "", false
	}
	f, err := os.Open(filepath.Join(procRoot, strconv.Itoa(pid), "cgroup"))
	if err != nil {
		return "", false
	}
	defer func() { _ = f.Close() }()
	id := containerOfCgroup(bufio.NewScanner(io.LimitReader(f, maxCgroupFile)))
	return id, id != ""
}

// ContainerOfCgroup is ContainerOfPID for the text of a cgroup file read
// elsewhere (devenv's GPU probe reads it on a remote engine's machine).
func ContainerOfCgroup(text string) string {
	return containerOfCgroup(bufio.NewScanner(io.LimitReader(strings.NewReader(text), maxCgroupFile)))
}

func containerOfCgroup(sc *bufio.Scanner) string {
	id := ""
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if found := containerInPath(parts[2]); found != "" {
			id = found
		}
	}
	return id
}

// containerInPath returns the innermost Docker container id in a cgroup
// path, or "".
func containerInPath(path string) string {
	id := ""
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		switch {
		case seg == "docker" && i+1 < len(segs) && isContainerID(segs[i+1]):
			id = segs[i+1]
		case strings.HasPrefix(seg, "docker-") && strings.HasSuffix(seg, ".scope"):
			if c := strings.TrimSuffix(strings.TrimPrefix(seg, "docker-"), ".scope"); isContainerID(c) {
				id = c
			}
		}
	}
	return id
}

// isContainerID reports whether s is a full Docker container id: 64
// lower-case hex digits.
func isContainerID(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
