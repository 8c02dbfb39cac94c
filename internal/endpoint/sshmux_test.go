package endpoint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMuxFrom: devenv's socket, ControlMaster=auto and a short
// ControlPersist when the user's ssh config sets none; a ControlPath,
// ControlMaster or ControlPersist the user set is kept.
func TestMuxFrom(t *testing.T) {
	rt := t.TempDir()
	getenv := env(map[string]string{"XDG_RUNTIME_DIR": rt})
	target := &SSHTarget{User: "me", Host: "gpubox", Port: "2222"}
	tests := []struct {
		name     string
		cfg      map[string]string
		flags    []string // want these (a "-o" before each)
		notFlags []string
		userPath string
	}{
		{name: "ssh's defaults", cfg: map[string]string{"controlpath": "none", "controlmaster": "false", "controlpersist": "no"},
			flags: []string{"ControlMaster=auto", "ControlPersist=" + MuxPersist, "ControlPath=" + filepath.Join(rt, "devenv-ssh")}},
		{name: "the user's ControlPath is kept", cfg: map[string]string{"controlpath": "/home/me/.ssh/cm-%C", "controlmaster": "false", "controlpersist": "no"},
			flags: []string{"ControlMaster=auto", "ControlPersist=" + MuxPersist}, notFlags: []string{"ControlPath="}, userPath: "/home/me/.ssh/cm-%C"},
		{name: "the user's master and persistence are kept", cfg: map[string]string{"controlpath": "/s/%C", "controlmaster": "autoask", "controlpersist": "600"},
			notFlags: []string{"ControlPath=", "ControlMaster=", "ControlPersist="}, userPath: "/s/%C"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := muxFrom(tt.cfg, target, getenv)
			if !m.Enabled() {
				t.Fatalf("not shared: %s", m.Reason)
			}
			joined := strings.Join(m.Flags, " ")
			for _, f := range tt.flags {
				if !strings.Contains(joined, "-o "+f) {
					t.Errorf("flags %q lack -o %s", joined, f)
				}
			}
			for _, f := range tt.notFlags {
				if strings.Contains(joined, f) {
					t.Errorf("flags %q override the user's %s", joined, f)
				}
			}
			if tt.userPath != "" && (m.Path != tt.userPath || !m.UserPath) {
				t.Errorf("path %q (user's: %v), want the user's %q", m.Path, m.UserPath, tt.userPath)
			}
		})
	}
}

// TestSocketPath: short enough for the 104-byte limit with ssh's temporary
// suffix, per target, in a private folder; a runtime dir too long falls
// back to the next place.
func TestSocketPath(t *testing.T) {
	rt := t.TempDir()
	a, _ := socketPath(&SSHTarget{User: "me", Host: "gpubox"}, env(map[string]string{"XDG_RUNTIME_DIR": rt}))
	b, _ := socketPath(&SSHTarget{User: "me", Host: "gpubox", Port: "2222"}, env(map[string]string{"XDG_RUNTIME_DIR": rt}))
	if a == "" || a == b || filepath.Dir(a) != filepath.Join(rt, "devenv-ssh") || len(a)+17 >= 104 {
		t.Fatalf("sockets %q and %q", a, b)
	}
	fi, err := os.Stat(filepath.Dir(a))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("socket folder %v %v, want 0700", fi.Mode(), err)
	}
	long := filepath.Join(rt, strings.Repeat("x", 100))
	c, _ := socketPath(&SSHTarget{Host: "gpubox"}, env(map[string]string{"XDG_RUNTIME_DIR": long}))
	if c == "" || strings.HasPrefix(c, long) || len(c) > maxSocketPath {
		t.Errorf("with a long runtime dir: %q", c)
	}
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if privateDir(open) {
		t.Error("a folder others can write counts as private")
	}
}

// TestMuxOff: DEVENV_SSH_MUX=0 shares nothing, and the engine's ssh gets
// no control flags.
func TestMuxOff(t *testing.T) {
	m := sshMux(&SSHTarget{Host: "gpubox"}, env(map[string]string{"DEVENV_SSH_MUX": "0"}))
	if m.Enabled() || len(m.Flags) != 0 || !slices.Contains([]string{"DEVENV_SSH_MUX=0"}, m.Reason) {
		t.Errorf("DEVENV_SSH_MUX=0 gives %+v", m)
	}
}

// TestEngineDialSharesTheConnection: the engine's ssh (docker's helper)
// runs with the ControlMaster flags read from `ssh -G`, so it and the
// forwards use one connection.
func TestEngineDialSharesTheConnection(t *testing.T) {
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\n" +
		"case \"$1\" in -G) printf 'user me\\ncontrolpath none\\ncontrolmaster false\\ncontrolpersist no\\n'; exit 0;; esac\nexit 255\n"
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	rt := t.TempDir()
	e, err := Resolve(Options{ConfigDir: t.TempDir(), Getenv: env(map[string]string{"DOCKER_HOST": "ssh://me@gpubox:2222", "XDG_RUNTIME_DIR": rt})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(log); err == nil {
		t.Fatal("ssh ran while resolving the endpoint; it should wait for the first dial")
	}
	c, _ := e.dialer(t.Context(), "tcp", "docker.example.com:80")
	if c != nil {
		buf := make([]byte, 1)
		_, _ = c.Read(buf) // the fake ssh exits; the read ends
		_ = c.Close()
	}
	b, _ := os.ReadFile(log)
	calls := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(calls) != 2 || !strings.HasPrefix(calls[0], "-G -l me -p 2222 -- gpubox") {
		t.Fatalf("ssh calls %q, want ssh -G then the dial", calls)
	}
	dial := calls[1]
	sock := e.SSHMux().Path
	for _, want := range []string{"-o ControlMaster=auto", "-o ControlPersist=" + MuxPersist, "-o ControlPath=" + sock, "docker system dial-stdio"} {
		if !strings.Contains(dial, want) {
			t.Errorf("the engine's ssh ran as %q: no %q", dial, want)
		}
	}
	if !strings.HasPrefix(sock, filepath.Join(rt, "devenv-ssh")+string(filepath.Separator)) {
		t.Errorf("control socket %q, want one under XDG_RUNTIME_DIR", sock)
	}
}
