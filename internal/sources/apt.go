package sources

import (
	"fmt"
	"github.com/devenv-dev/devenv/internal/lazy"
	"net/url"
	"strings"
)

// APT mirrors: the generated Dockerfiles' apt steps read the base image's
// Debian and Ubuntu archives (hosts under debian.org and ubuntu.com) from
// the mirror instead, its URL in place of their scheme://host and their
// paths kept: http://deb.debian.org/debian-security becomes
// MIRROR/debian-security, http://archive.ubuntu.com/ubuntu MIRROR/ubuntu.

var (
	aptHost = lazy.Regexp(`^([A-Za-z0-9-]+\.)*[A-Za-z0-9-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$`)
	aptPath = lazy.Regexp(`^(/[A-Za-z0-9._~-]+)*/?$`)
)

// APTMirrorProblem says what is wrong with an apt mirror URL, "" when
// nothing is. The URL goes into the build's RUN steps (a sed replacement
// and a shell word, both kept in the image history), so it is held to
// characters that mean nothing to either, and credentials are refused;
// a value holding them is never repeated.
func APTMirrorProblem(v string) string {
	rest := v
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	if strings.Contains(rest, "@") {
		return "holds credentials (user:password@); the value is not shown here"
	}
	u, err := url.Parse(v)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Sprintf("%q is not an http(s) URL", v)
	case u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(v, "?#"):
		return fmt.Sprintf("%q has a query or fragment; give the archive's base URL", v)
	case !aptHost().MatchString(u.Host):
		return fmt.Sprintf("%q has a host that is not a DNS name or IP address", v)
	case !aptPath().MatchString(u.EscapedPath()):
		return fmt.Sprintf("%q has characters other than letters, digits and . _ ~ - / in its path", v)
	}
	return ""
}
