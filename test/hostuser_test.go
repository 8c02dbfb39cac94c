package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestContainerUserIsTheHostUser: devenv run by a user who is not uid 1000
// (as on a workstation with LDAP uids) builds the image user with that
// user's uid and gid, so what a job writes under the bind-mounted
// /workspace belongs to the user who owns the project.
func TestContainerUserIsTheHostUser(t *testing.T) {
	t.Parallel()
	const uid, gid = 4321, 4322
	w := newWorld(t)
	dir, _ := w.project(t, oneSpark, nil)
	standin.ChownTree(t, dir, uid, gid)
	env := append(w.env, "DEVENV_CACHE="+standin.OwnedDir(t, uid, gid))
	for _, args := range [][]string{{"lock"}, {"up", "--wait"}} {
		if r := standin.RunAs(t, uid, gid, dir, env, args...); r.Code != 0 {
			t.Fatalf("devenv %v as %d: exit %d\n%s", args, uid, r.Code, r.Stderr)
		}
	}
	r := standin.RunAs(t, uid, gid, dir, env, "exec", "-T", "spark", "--",
		"sh", "-c", "id -u; id -g; echo from-the-container > /workspace/out.txt")
	if r.Code != 0 {
		t.Fatalf("exec: exit %d\n%s", r.Code, r.Stderr)
	}
	if got := strings.Fields(r.Stdout); len(got) != 2 || got[0] != "4321" || got[1] != "4322" {
		t.Errorf("the container user is %q, want uid 4321 gid 4322", r.Stdout)
	}
	st, err := os.Stat(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatalf("the container could not write /workspace: %v", err)
	}
	if s := st.Sys().(*syscall.Stat_t); s.Uid != uid || s.Gid != gid {
		t.Errorf("out.txt belongs to %d:%d, want %d:%d", s.Uid, s.Gid, uid, gid)
	}
}
