package endpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MuxPersist is how long an ssh master devenv started stays up after its
// last session ended (ControlPersist), so the next command reuses it.
const MuxPersist = "60"

// maxSocketPath is the shortest unix socket path limit (macOS's 104 bytes,
// with its NUL); ssh first binds the path plus a 17-byte random suffix.
const maxSocketPath = 104 - 1 - 17

// SSHMux is how every ssh devenv runs to one engine shares a single SSH
// connection: OpenSSH's ControlMaster. Flags go to every ssh (the engine's
// `docker system dial-stdio`, the port forwards, `-O` control commands).
type SSHMux struct {
	// Path is the control socket: devenv's per-engine one, or the one the
	// user's ssh config names (then Flags leave it to the config). "" when
	// connections are not shared (see Reason).
	Path  string
	Flags []string
	// UserPath is true when the user's ssh config set ControlPath.
	UserPath bool
	// Reason says why connections are not shared, when Path is "".
	Reason string
}

// Enabled is true when the ssh processes share one connection.
func (m SSHMux) Enabled() bool { return m.Path != "" }

// muxCache computes an endpoint's SSHMux once.
type muxCache struct {
	once sync.Once
	mux  SSHMux
}

// SSHMux is the sharing for this ssh engine, read once from `ssh -G` (the
// effective config) and kept: a ControlPath the user configured is kept,
// else devenv's own socket under the runtime or cache directory;
// ControlMaster=auto and ControlPersist=60 unless the user set them.
// DEVENV_SSH_MUX=0 turns it off (every ssh its own connection), as do
// Windows' ssh, which has no ControlMaster.
func (e *Endpoint) SSHMux() SSHMux {
	if e.SSH == nil {
		return SSHMux{Reason: "not an ssh engine"}
	}
	if e.mux == nil {
		return sshMux(e.SSH, e.getenv)
	}
	e.mux.once.Do(func() { e.mux.mux = sshMux(e.SSH, e.getenv) })
	return e.mux.mux
}

func sshMux(t *SSHTarget, getenv func(string) string) SSHMux {
	if getenv == nil {
		getenv = os.Getenv
	}
	if v := getenv("DEVENV_SSH_MUX"); v == "0" || v == "false" {
		return SSHMux{Reason: "DEVENV_SSH_MUX=0"}
	}
	if runtime.GOOS == "windows" {
		return SSHMux{Reason: "Windows' ssh has no ControlMaster"}
	}
	cfg, err := effectiveConfig(t)
	if err != nil {
		return SSHMux{Reason: "ssh -G: " + err.Error()}
	}
	return muxFrom(cfg, t, getenv)
}

// muxFrom decides the flags from ssh -G's answer.
func muxFrom(cfg map[string]string, t *SSHTarget, getenv func(string) string) SSHMux {
	m := SSHMux{}
	if p := cfg["controlpath"]; p != "" && p != "none" {
		m.Path, m.UserPath = p, true
	} else {
		path, why := socketPath(t, getenv)
		if path == "" {
			return SSHMux{Reason: why}
		}
		m.Path = path
		m.Flags = append(m.Flags, "-o", "ControlPath="+path)
	}
	switch cfg["controlmaster"] {
	case "auto", "ask", "autoask":
	default:
		m.Flags = append(m.Flags, "-o", "ControlMaster=auto")
	}
	if p := cfg["controlpersist"]; p == "" || p == "no" || p == "false" {
		m.Flags = append(m.Flags, "-o", "ControlPersist="+MuxPersist)
	}
	return m
}

// effectiveConfig runs `ssh -G` for the target: the config ssh would use,
// lower-case keys.
func effectiveConfig(t *SSHTarget) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ssh", append(append([]string{"-G"}, t.Args()...), "--", t.Host)...).Output()
	if err != nil {
		return nil, err
	}
	cfg := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), " ")
		k = strings.ToLower(k)
		if _, seen := cfg[k]; ok && !seen {
			cfg[k] = strings.TrimSpace(v)
		}
	}
	return cfg, nil
}

// Args are ssh's -l and -p for the target.
func (t *SSHTarget) Args() []string {
	var a []string
	if t.User != "" {
		a = append(a, "-l", t.User)
	}
	if t.Port != "" {
		a = append(a, "-p", t.Port)
	}
	return a
}

// socketPath is devenv's control socket for the target: a short hash of
// user@host:port in $XDG_RUNTIME_DIR/devenv-ssh, else the user cache
// directory's devenv/ssh, else a private folder in the temp directory; ""
// (and why) when none is short, plain and private.
func socketPath(t *SSHTarget, getenv func(string) string) (string, string) {
	sum := sha256.Sum256([]byte(t.User + "@" + t.Host + ":" + t.Port))
	name := hex.EncodeToString(sum[:6])
	var dirs []string
	if r := getenv("XDG_RUNTIME_DIR"); r != "" {
		dirs = append(dirs, filepath.Join(r, "devenv-ssh"))
	}
	if c, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(c, "devenv", "ssh"))
	}
	dirs = append(dirs, filepath.Join(os.TempDir(), "devenv-ssh-"+strconv.Itoa(os.Getuid())))
	why := "no private folder for ssh's control socket"
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if len(p) > maxSocketPath || strings.ContainsAny(p, " \t\"'%#=") {
			why = "the control socket's path " + p + " is too long or holds characters ssh reads specially"
			continue
		}
		if privateDir(d) {
			return p, ""
		}
	}
	return "", why
}

// privateDir makes d (0700) and says whether it is a folder of this user
// that no one else can enter, not a link.
func privateDir(d string) bool {
	if err := os.MkdirAll(d, 0o700); err != nil {
		return false
	}
	fi, err := os.Lstat(d)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		return false
	}
	return ownedByMe(fi)
}
