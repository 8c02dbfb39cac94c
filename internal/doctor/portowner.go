package doctor

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Naming the program that holds a host port, as `ss -ltnp` does: the
// inode of the LISTEN socket on the port (proc's net/tcp and net/tcp6),
// then the process with a file descriptor on socket:[inode] and its comm.
// Reading another user's descriptors needs privilege, and another network
// namespace's sockets are not listed: then the program is not named.

// tcpListen is /proc/net/tcp's st column for LISTEN.
const tcpListen = "0A"

// maxProcScan bounds the processes whose descriptors are read.
const maxProcScan = 100000

// portProgram names the program listening on TCP port under proc (the
// /proc mount): "python3 (pid 1234)"; "" when it cannot be read.
func portProgram(proc string, port int) string {
	inodes := map[string]bool{}
	for _, f := range []string{"net/tcp", "net/tcp6"} {
		fh, err := os.Open(filepath.Join(proc, f))
		if err != nil {
			continue
		}
		for ino := range listenInodes(fh, port) {
			inodes[ino] = true
		}
		_ = fh.Close()
	}
	if len(inodes) == 0 {
		return ""
	}
	pid, comm := socketOwner(proc, inodes)
	if pid == 0 {
		return ""
	}
	return fmt.Sprintf("%s (pid %d)", comm, pid)
}

// listenInodes reads a net/tcp or net/tcp6 table and returns the socket
// inodes listening on port (any address). Inode 0 (a socket without one,
// as a closing socket is) is left out.
func listenInodes(r io.Reader, port int) map[string]bool {
	out := map[string]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[3] != tcpListen {
			continue
		}
		_, hexPort, ok := strings.Cut(f[1], ":")
		p, err := strconv.ParseUint(hexPort, 16, 16)
		if !ok || err != nil || int(p) != port || f[9] == "0" {
			continue
		}
		out[f[9]] = true
	}
	return out
}

// socketOwner finds a process with a descriptor on one of inodes and
// returns its pid and comm; 0 when none can be read.
func socketOwner(proc string, inodes map[string]bool) (int, string) {
	ents, err := os.ReadDir(proc)
	if err != nil {
		return 0, ""
	}
	scanned := 0
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		if scanned++; scanned > maxProcScan {
			break
		}
		if holdsSocket(filepath.Join(proc, e.Name(), "fd"), inodes) {
			comm, err := os.ReadFile(filepath.Join(proc, e.Name(), "comm"))
			name := strings.TrimSpace(string(comm))
			if err != nil || name == "" {
				name = "a program"
			}
			return pid, name
		}
	}
	return 0, ""
}

// holdsSocket reports whether a process's fd directory links to
// socket:[inode] for one of inodes.
func holdsSocket(fdDir string, inodes map[string]bool) bool {
	fds, err := os.ReadDir(fdDir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(fdDir, fd.Name()))
		if err != nil {
			continue
		}
		if ino, ok := strings.CutPrefix(target, "socket:["); ok && inodes[strings.TrimSuffix(ino, "]")] {
			return true
		}
	}
	return false
}
