package e2e

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// closedAddr is a 127.0.0.1 address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// TestProfilesOutdated: `devenv profiles --outdated` reads the Maven
// stand-in's maven-metadata.xml through DEVENV_MIRROR_MAVEN and names a
// RAPIDS Accelerator release the catalog lacks; with nothing reachable it
// says so and exits 0.
func TestProfilesOutdated(t *testing.T) {
	t.Parallel()
	art := standin.Artifacts(t, standin.WithRapids("26.10.0", "26.12.0"), standin.WithScala("2.13"))
	closed := closedAddr(t)
	env := []string{"NO_COLOR=1", "DEVENV_MIRROR_MAVEN=" + art.MavenURL(), "DEVENV_MIRROR_APACHE=http://" + closed, "DEVENV_MIRROR_REGISTRIES=nvcr.io=" + closed}
	dir := t.TempDir()
	r := standin.Run(t, dir, env, "profiles", "--outdated", "--json")
	var rep struct {
		Newer   []struct{ Product, Version, Note string }
		Offline bool
	}
	if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &rep) != nil {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if rep.Offline || len(rep.Newer) != 1 || rep.Newer[0].Version != "26.12.0" || rep.Newer[0].Note != "not in devenv's catalog yet" {
		t.Fatalf("report %s", r.Stdout)
	}
	offline := []string{"NO_COLOR=1", "DEVENV_MIRROR_MAVEN=http://" + closed, "DEVENV_MIRROR_APACHE=http://" + closed, "DEVENV_MIRROR_REGISTRIES=nvcr.io=" + closed}
	if r := standin.Run(t, dir, offline, "profiles", "--outdated"); r.Code != 0 || !strings.Contains(r.Stdout, "could not read any publisher's listing") {
		t.Fatalf("offline: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
