package images

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildErrorNamesThePyPIMirror: a build that fails in a pip step
// because pip reached no index ends with the mirror to set (mirrors.pypi),
// not on the bare Dockerfile step; other failures get no such line. Each
// fixture's first line is the engine's error, the rest the output's tail.
func TestBuildErrorNamesThePyPIMirror(t *testing.T) {
	cases := []struct {
		fixture string
		hint    bool
	}{
		{"pip-dns.txt", true},
		{"pip-dns-bookworm.txt", true}, // captured from a devenv up without mirrors.pypi on this machine
		{"pip-refused.txt", true},
		{"pip-no-release.txt", false}, // the index answered: the version is the problem
		{"pip-build-error.txt", false},
		{"apt-dns.txt", false},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "buildhint", c.fixture))
			if err != nil {
				t.Fatal(err)
			}
			first, tail, _ := strings.Cut(strings.TrimRight(string(data), "\n"), "\n")
			msg := (&BuildError{Err: errors.New(strings.TrimPrefix(first, "# ")), Tail: tail}).Error()
			lines := strings.Split(msg, "\n")
			last := lines[len(lines)-1]
			got := strings.Contains(msg, "mirrors.pypi")
			if got != c.hint {
				t.Fatalf("names mirrors.pypi: %v, want %v\n%s", got, c.hint, msg)
			}
			if c.hint && (!strings.Contains(last, "Set mirrors.pypi in devenv.yaml") || !strings.Contains(last, "cannot reach PyPI")) {
				t.Errorf("the last line is %q: want why (no PyPI) and the mirror to set", last)
			}
		})
	}
}
