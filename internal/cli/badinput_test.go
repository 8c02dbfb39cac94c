package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// badCase is one entry of testdata/badinput.txt: files, a command line,
// the exit code devenv must give and text its output must hold.
type badCase struct {
	name  string
	line  int
	args  []string
	exit  int
	want  []string
	files map[string]string
	// lock, when set, writes devenv.lock generated offline from the
	// case's devenv.yaml ("fresh") or from another of its files (as if
	// devenv.yaml had said that when it was locked), with each edit
	// (old => new) applied to its text.
	lock  string
	edits [][2]string
	env   [][2]string // env: NAME=VALUE lines, set for the run
	// specials are files the catalogue's text cannot hold (FIFOs, links,
	// large files): see badfiles_test.go.
	specials []special
}

// readBadCases parses the catalogue. Its format, one case after another:
//
//	=== name
//	args: lock --check        (default: config)
//	exit: 5                   (default: 2)
//	want: text the output must hold (repeatable)
//	lock: fresh               (optional: lock devenv.yaml offline first;
//	                           "lock: old.yaml" locks that file instead)
//	lockedit: old => new      (optional, repeatable: then edit the lock)
//	env: NAME=VALUE           (optional, repeatable: set for the run)
//	file devenv.yaml:         (repeatable: the lines up to the next
//	...                        "file", "===" or end are the file)
func readBadCases(t *testing.T, path string) []*badCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var cases []*badCase
	var c *badCase
	file := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "=== "):
			c = &badCase{name: strings.TrimPrefix(line, "=== "), line: n, args: []string{"config"}, exit: 2, files: map[string]string{}}
			cases, file = append(cases, c), ""
		case c == nil || (file == "" && (line == "" || strings.HasPrefix(line, "#"))):
		case strings.HasPrefix(line, "file ") && strings.HasSuffix(line, ":"):
			file = strings.TrimSuffix(strings.TrimPrefix(line, "file "), ":")
			c.files[file] = ""
		case file != "":
			c.files[file] += unescape(line) + "\n"
		default:
			c.header(t, path, n, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// unescape turns <NUL> into a NUL byte and <TAB> into a tab, so that the
// catalogue can hold them as text.
func unescape(s string) string {
	return strings.NewReplacer("<NUL>", "\x00", "<TAB>", "\t").Replace(s)
}

func (c *badCase) header(t *testing.T, path string, n int, line string) {
	key, val, ok := strings.Cut(line, ": ")
	if !ok {
		key, val = strings.TrimSuffix(line, ":"), ""
	}
	switch key {
	case "args":
		c.args = strings.Fields(val)
		if val == "" {
			c.args = nil
		}
	case "exit":
		code, err := strconv.Atoi(val)
		if err != nil {
			t.Fatalf("%s:%d: exit %q", path, n, val)
		}
		c.exit = code
	case "want":
		c.want = append(c.want, val)
	case "lock":
		c.lock = val
	case "env":
		k, v, _ := strings.Cut(val, "=")
		c.env = append(c.env, [2]string{k, v})
	case "lockedit":
		old, new, ok := strings.Cut(val, " => ")
		if !ok {
			t.Fatalf("%s:%d: lockedit wants 'old => new'", path, n)
		}
		c.edits = append(c.edits, [2]string{old, new})
	default:
		if sp, ok := parseSpecial(key, val); ok {
			c.specials = append(c.specials, sp)
			return
		}
		t.Fatalf("%s:%d: unknown line %q", path, n, line)
	}
}

// TestBadInputCatalogue runs every case of testdata/badinput.txt in-process
// (no Docker, no network): each must exit with its code and say its text,
// and never panic.
func TestBadInputCatalogue(t *testing.T) {
	const path = "testdata/badinput.txt"
	cases := readBadCases(t, path)
	if len(cases) < 150 {
		t.Errorf("the catalogue holds %d cases; it is meant to hold at least 150", len(cases))
	}
	runBadCases(t, path, cases)
}

// runBadCases runs each case in a directory of its own.
func runBadCases(t *testing.T, path string, cases []*badCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("DEVENV_CACHE", t.TempDir())
			for _, k := range []string{"DEVENV_MIRROR_MAVEN", "DEVENV_MIRROR_APACHE", "DEVENV_MIRROR_PYPI", "DEVENV_MIRROR_REGISTRIES"} {
				t.Setenv(k, "")
			}
			for name, content := range c.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.lock != "" {
				writeCaseLock(t, dir, c.lock, c.edits)
			}
			makeSpecials(t, dir, c.specials)
			for _, kv := range c.env {
				t.Setenv(kv[0], kv[1])
			}
			t.Chdir(dir)
			out, errOut, code := runCLI(t, c.args...)
			all := out + errOut
			if code != c.exit {
				t.Errorf("%s:%d: devenv %s exited %d, want %d\n%s", path, c.line, strings.Join(c.args, " "), code, c.exit, all)
			}
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("%s:%d: output lacks %q:\n%s", path, c.line, w, all)
				}
			}
			checkHidden(t, path, c, all)
		})
	}
}

// writeCaseLock locks the case's devenv.yaml (or from) offline and applies edits.
func writeCaseLock(t *testing.T, dir, from string, edits [][2]string) {
	t.Helper()
	if from == "fresh" {
		from = spec.FileName
	}
	data, err := os.ReadFile(filepath.Join(dir, from))
	if err != nil {
		t.Fatal(err)
	}
	p, err := spec.Parse(filepath.Join(dir, spec.FileName), data, dir)
	if err != nil {
		t.Fatalf("lock: fresh needs a valid devenv.yaml: %v", err)
	}
	f, err := lock.Generate(t.Context(), p, nil, profiles.Builtin(), fakePinner{}, fakeFetcher{}, lock.Options{POMs: noPOMs{}})
	if err != nil {
		t.Fatal(err)
	}
	data, err = lock.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, e := range edits {
		if !strings.Contains(text, e[0]) {
			t.Fatalf("lockedit: %q is not in the lock:\n%s", e[0], text)
		}
		text = strings.Replace(text, e[0], e[1], 1)
	}
	if err := os.WriteFile(filepath.Join(dir, lock.FileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
