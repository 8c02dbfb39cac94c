package doctor

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// LocalHost reads the facts of the machine devenv runs on.
func LocalHost() HostFacts {
	return HostFacts{
		MemoryBytes:   memTotal("/proc/meminfo"),
		DiskFreeBytes: diskFree,
		PortFree:      portFree,
		PortOwner:     func(port int) string { return portProgram("/proc", port) },
		WSL:           isWSL("/proc/version"),
		LookPath:      exec.LookPath,
		FileExists:    fileExists,
		GOOS:          runtime.GOOS,
		DockerHost:    os.Getenv("DOCKER_HOST"),
	}
}

// memTotal reads MemTotal from a /proc/meminfo file; 0 when unreadable.
func memTotal(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// isWSL reports whether a /proc/version file names Microsoft's kernel.
func isWSL(path string) bool {
	b, err := os.ReadFile(path)
	return err == nil && strings.Contains(strings.ToLower(string(b)), "microsoft")
}

// portFree reports whether ip:port can be bound for TCP right now.
func portFree(ip string, port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
