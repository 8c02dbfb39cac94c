//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// special is a file of a catalogue case that text cannot hold:
//
//	fifo: NAME                 a FIFO (named pipe) nobody writes to
//	link: NAME -> TARGET       a symbolic link; TARGET may start with
//	                           $OUTSIDE/, a directory outside the project
//	                           holding "secret" (whose text is outsideSecret)
//	big: NAME MIB              a file of MIB MiB of YAML comment lines
//	nested: NAME DEPTH         a compose file whose one service has an
//	                           environment value nested DEPTH ${...} deep
//	hide: TEXT                 the output must not hold TEXT
type special struct {
	kind, name, arg string
}

// outsideSecret is what $OUTSIDE/secret holds: no output may show it.
const outsideSecret = "outside-secret-6f1d"

func parseSpecial(key, val string) (special, bool) {
	switch key {
	case "fifo":
		return special{kind: key, name: val}, true
	case "link":
		name, target, ok := strings.Cut(val, " -> ")
		return special{kind: key, name: name, arg: target}, ok
	case "big", "nested":
		name, n, ok := strings.Cut(val, " ")
		return special{kind: key, name: name, arg: n}, ok
	case "hide":
		return special{kind: key, arg: val}, true
	}
	return special{}, false
}

// makeSpecials creates the case's special files in dir.
func makeSpecials(t *testing.T, dir string, sps []special) {
	t.Helper()
	if len(sps) == 0 {
		return
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte(outsideSecret+"-0123456789abcdef0123456789abcdef\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sp := range sps {
		if sp.kind == "hide" {
			continue
		}
		p := filepath.Join(dir, sp.name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch sp.kind {
		case "fifo":
			err = syscall.Mkfifo(p, 0o644)
		case "link":
			err = os.Symlink(strings.Replace(sp.arg, "$OUTSIDE", outside, 1), p)
		case "big":
			mib, _ := strconv.Atoi(sp.arg)
			line := "# " + strings.Repeat("x", 61) + "\n"
			err = os.WriteFile(p, []byte(strings.Repeat(line, mib<<20/len(line)+1)), 0o644)
		case "nested":
			depth, _ := strconv.Atoi(sp.arg)
			v := strings.Repeat("${A:-", depth) + "x" + strings.Repeat("}", depth)
			err = os.WriteFile(p, []byte("services:\n  db:\n    image: postgres:16\n    environment:\n      X: \""+v+"\"\n"), 0o644)
		}
		if err != nil {
			t.Fatalf("%s %s: %v", sp.kind, sp.name, err)
		}
	}
}

// checkHidden fails when the output shows a hide: text or the outside secret.
func checkHidden(t *testing.T, path string, c *badCase, all string) {
	t.Helper()
	for _, sp := range c.specials {
		if sp.kind == "hide" && strings.Contains(all, sp.arg) {
			t.Errorf("%s:%d: output shows %q:\n%s", path, c.line, sp.arg, all)
		}
	}
	if strings.Contains(all, outsideSecret) {
		t.Errorf("%s:%d: output shows the content of a file outside the project:\n%s", path, c.line, all)
	}
}

// TestBadFileCatalogue runs testdata/badfiles.txt like the bad-input
// catalogue: files that are not what devenv reads (FIFOs, devices behind
// links, files too large, links out of the project or under .devenv,
// includes outside it, interpolation nested thousands deep) must be
// refused at once, naming the file, with the documented exit code.
func TestBadFileCatalogue(t *testing.T) {
	const path = "testdata/badfiles.txt"
	runBadCases(t, path, readBadCases(t, path))
}
