package doctor

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// testdata/proc/net/tcp and tcp6 are copies of a real host's tables: a
// listener on 127.0.0.1:37305 with a connection to it (whose accepted side
// has inode 0), sshd-like 0.0.0.0:2024, and [::1]:48151.
func TestListenInodes(t *testing.T) {
	tests := []struct {
		file string
		port int
		want string
	}{
		{"tcp", 37305, "2702073"}, // the ESTABLISHED lines on the port are not listeners
		{"tcp", 2024, "548"},
		{"tcp", 60144, ""}, // 0xEAF0: only a client's local port
		{"tcp", 48151, ""},
		{"tcp6", 48151, "2702072"},
		{"tcp6", 37305, ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-%d", tt.file, tt.port), func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "proc", "net", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = f.Close() }()
			var got []string
			for ino := range listenInodes(f, tt.port) {
				got = append(got, ino)
			}
			if strings.Join(got, ",") != tt.want {
				t.Errorf("inodes = %v, want %q", got, tt.want)
			}
		})
	}
}

// fakeProc builds a /proc with the testdata tables and processes whose
// descriptors link to the given targets.
func fakeProc(t *testing.T, procs map[string][]string, comms map[string]string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "net"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tcp", "tcp6"} {
		data, err := os.ReadFile(filepath.Join("testdata", "proc", "net", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "net", f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for pid, targets := range procs {
		fd := filepath.Join(root, pid, "fd")
		if err := os.MkdirAll(fd, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, target := range targets {
			if err := os.Symlink(target, filepath.Join(fd, fmt.Sprint(i))); err != nil {
				t.Fatal(err)
			}
		}
		if c, ok := comms[pid]; ok {
			if err := os.WriteFile(filepath.Join(root, pid, "comm"), []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func TestPortProgram(t *testing.T) {
	root := fakeProc(t, map[string][]string{
		"17":   {"/dev/null", "socket:[2702074]"}, // the client end, not the listener
		"4242": {"pipe:[99]", "socket:[2702073]"},
		"self": {"socket:[548]"}, // not a pid
		"901":  {"socket:[2702072]"},
	}, map[string]string{"4242": "python3\n", "17": "curl\n"})
	tests := []struct {
		port int
		want string
	}{
		{37305, "python3 (pid 4242)"},
		{48151, "a program (pid 901)"}, // comm unreadable
		{2024, ""},                     // no process of ours holds it (another user's, or another namespace)
		{9, ""},                        // nothing listens
	}
	for _, tt := range tests {
		if got := portProgram(root, tt.port); got != tt.want {
			t.Errorf("portProgram(%d) = %q, want %q", tt.port, got, tt.want)
		}
	}
	if got := portProgram(filepath.Join(root, "missing"), 37305); got != "" {
		t.Errorf("without /proc: %q, want empty", got)
	}
}

// TestPortProgramLive listens on a free port and reads the real /proc.
func TestPortProgramLive(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("names programs from /proc, which only Linux has; elsewhere the `ss -ltnp` hint stays")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	port := l.Addr().(*net.TCPAddr).Port
	comm, err := os.ReadFile("/proc/self/comm")
	if err != nil {
		t.Skipf("cannot read /proc/self/comm: %v", err)
	}
	want := fmt.Sprintf("%s (pid %d)", strings.TrimSpace(string(comm)), os.Getpid())
	if got := portProgram("/proc", port); got != want {
		t.Errorf("portProgram(%d) = %q, want %q", port, got, want)
	}
}

func TestPortConflictNamesTheProgram(t *testing.T) {
	w := PortWant{Service: "web", Where: "devenv.yaml", HostIP: "127.0.0.1", HostPort: 8888, Protocol: "tcp"}
	busy := func(_ string, p int) bool { return p != 8888 }
	owner := func(p int) string {
		if p == 8888 {
			return "python3 (pid 4242)"
		}
		return ""
	}
	for _, tt := range []struct {
		owner func(int) string
		want  string
	}{
		{owner, "host port 127.0.0.1:8888 is in use by program python3 (pid 4242); stop it"},
		{nil, "in use by another program (`ss -ltnp` shows which)"},
		{func(int) string { return "" }, "in use by another program (`ss -ltnp` shows which)"},
	} {
		cs, err := PortConflicts(t.Context(), nil, "demo", []PortWant{w}, busy, tt.owner)
		if err != nil || len(cs) != 1 {
			t.Fatalf("conflicts = %v, %v", cs, err)
		}
		if !strings.Contains(cs[0].String(), tt.want) {
			t.Errorf("%q lacks %q", cs[0].String(), tt.want)
		}
	}
}
