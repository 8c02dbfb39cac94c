package standin

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// RunAs is Run as another user: devenv runs with uid and gid, and the group
// of the engine's socket so that it reaches the engine. Its programs are
// copied to a directory that user can read, and HOME is a directory it owns;
// the caller makes dir and what env names that user's.
func RunAs(t testing.TB, uid, gid int, dir string, env []string, args ...string) Result {
	t.Helper()
	bin := userCopy(t, uid, gid)
	home := OwnedDir(t, uid, gid)
	cred := &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	if st, err := os.Stat("/var/run/docker.sock"); err == nil {
		cred.Groups = []uint32{st.Sys().(*syscall.Stat_t).Gid}
	}
	var stdout, stderr strings.Builder
	start := time.Now()
	var code int
	var err error
	// A parallel test that forks while the copy was open for writing holds
	// it until its child execs: exec then fails with "text file busy" for
	// that moment (golang.org/issue/22315). Try again, a bounded number of
	// times.
	for try := 0; ; try++ {
		cmd := exec.CommandContext(t.Context(), bin, args...)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), "HOME="+home), env...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		code, err = exitCode(cmd, cmd.Run())
		if !errors.Is(err, syscall.ETXTBSY) || try == 20 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("standin: running devenv %s as %d:%d: %v", strings.Join(args, " "), uid, gid, err)
	}
	t.Logf("standin: devenv %s as %d:%d exited %d after %s", strings.Join(args, " "), uid, gid, code, time.Since(start).Round(time.Millisecond))
	return Result{Stdout: stdout.String(), Stderr: stderr.String(), Code: code}
}

// OwnedDir is a new directory owned by uid:gid that it can reach (every
// directory above it can be searched), removed at cleanup.
func OwnedDir(t testing.TB, uid, gid int) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "devenv-user-")
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatalf("standin: %v", err)
	}
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatalf("standin: %v", err)
	}
	return dir
}

// ChownTree gives dir and everything in it to uid:gid and lets every
// directory above it be searched, so that user can work in it.
func ChownTree(t testing.TB, dir string, uid, gid int) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
	for p := filepath.Dir(dir); err == nil && p != "/"; p = filepath.Dir(p) {
		var st os.FileInfo
		if st, err = os.Stat(p); err == nil && st.Mode().Perm()&0o001 == 0 {
			err = os.Chmod(p, st.Mode().Perm()|0o011)
		}
	}
	if err != nil {
		t.Fatalf("standin: giving %s to %d:%d: %v", dir, uid, gid, err)
	}
}

// userCopy copies devenv where uid:gid can run it.
func userCopy(t testing.TB, uid, gid int) string {
	t.Helper()
	dir := OwnedDir(t, uid, gid)
	for _, prog := range programs {
		if err := copyExecutable(filepath.Join(filepath.Dir(Devenv(t)), prog), filepath.Join(dir, prog)); err != nil {
			t.Fatalf("standin: %v", err)
		}
	}
	return filepath.Join(dir, "devenv")
}

func copyExecutable(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}
