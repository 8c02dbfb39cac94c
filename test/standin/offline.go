package standin

import "testing"

// UnreachableArchive is the Debian archive OfflineDebian's sources name: a
// host under debian.org that does not resolve, so apt there fails as it
// does behind an air gap, and mirrors.apt (which replaces debian.org and
// ubuntu.com archives) applies to it.
const UnreachableArchive = "http://devenv-unreachable.invalid.debian.org/debian"

// OfflineDebian is the Debian stand-in with its apt sources pointing at
// UnreachableArchive only (the one-line sources.list and a deb822 file for
// the security suite), standing in for a real base behind an air gap.
func OfflineDebian(t testing.TB) string {
	t.Helper()
	dockerfile := `FROM ` + Debian(t) + `
RUN printf 'deb ` + UnreachableArchive + ` bookworm main\n' > /etc/apt/sources.list \
 && printf 'Types: deb\nURIs: ` + UnreachableArchive + `-security\nSuites: bookworm-security\nComponents: main\n' > /etc/apt/sources.list.d/debian.sources \
 && rm -rf /var/lib/apt/lists/*
`
	return standinImage(t, "devenv-standin/debian-offline", map[string][]byte{"Dockerfile": []byte(dockerfile)})
}

// PrivateDebian is the Debian stand-in with one label naming owner: an
// image of its own ID, so the builds made on it share no step cache with
// the builds of other tests on the plain stand-in (the classic builder
// takes the newest equal image as a step's cache, whichever build made it).
func PrivateDebian(t testing.TB, owner string) string {
	t.Helper()
	dockerfile := "FROM " + Debian(t) + "\nLABEL org.devenv.e2e.private=" + owner + "\n"
	return standinImage(t, "devenv-standin/debian-private", map[string][]byte{"Dockerfile": []byte(dockerfile)})
}
