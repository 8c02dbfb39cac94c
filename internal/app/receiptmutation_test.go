package app

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/fastup"
)

// mutationFixture is a project that uses every kind of input a receipt
// can stand for: devenv.yaml, a profile file, the services' env_file and
// bind sources, a devenv build (a hidden file in its context), a compose
// file with its .env, env_file and label_file (in a hidden directory),
// an include (with its own .env) whose service extends one of a third
// file, and a compose build whose Dockerfile lies outside its context, a
// context with a hidden file and a .dockerignore; devenv.lock, the
// generated files and the Jupyter token are added by lock and up.
const mutationFixture = "testdata/receiptmutation"

// notSent are the files of the fixture that no build sends (its
// .dockerignore excludes them) and nothing else reads: changing them
// changes nothing, and the fast path must not hand over for them.
var notSent = []string{"web/debug.log", "web/ignored/note.txt"}

// linked are the fixture's files that the test turns into links to a
// copy under conf/, as a project that keeps its files elsewhere in the
// tree does.
var linked = []string{"compose.yaml", "web.env"}

// linkTo moves dir/name to dir/target and leaves a link in its place.
func linkTo(t *testing.T, dir, name, target string) {
	t.Helper()
	from, to := filepath.Join(dir, name), filepath.Join(dir, target)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Dir(from), to)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rel, from); err != nil {
		t.Fatal(err)
	}
}

// mutation changes one file in place; restore puts it back.
type mutation struct {
	name   string
	change func(path string) error
	// sentOnly: a change of a file no build sends must not hand over (a
	// removal changes its directory's listing, which is sent).
	sentOnly bool
}

var mutations = []mutation{
	{"append", func(p string) error { return appendTo(p, "\n#mutated\nMUTATED=1\n") }, true},
	{"empty", func(p string) error { return os.Truncate(p, 0) }, true},
	{"touch", func(p string) error {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		later := fi.ModTime().Add(time.Hour)
		return os.Chtimes(p, later, later)
	}, true},
	{"remove", os.Remove, false},
}

func appendTo(path, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// TestReceiptMutation does not trust the recorder: after a full up that
// leaves a receipt, every regular file under the project (walked, not
// listed) and every input the receipt names is changed in turn (content,
// emptied, touched only, removed; an absent one created), and wherever a
// full `up --dry-run` would now say or do anything else, the receipt's
// inputs must no longer match (fastup.Check hands over to the full up).
// Files the build never sends must not make it hand over.
func TestReceiptMutation(t *testing.T) {
	t.Setenv("DOCKER_CONFIG", t.TempDir()) // the configuration that picks the engine: an input too
	files := readFixture(t, mutationFixture)
	yaml := files["devenv.yaml"]
	w := newWorld(t, yaml, files)
	for _, f := range linked { // read through a link: the target is the input
		linkTo(t, w.dir, f, "conf/"+f)
	}
	w.lock(t)
	if _, err := w.open(t).Up(t.Context(), UpOptions{}); err != nil { // mints the token, writes the generated files
		t.Fatal(err)
	}
	waitFSClock(t, w.dir)
	p := w.open(t)
	res, err := p.Up(t.Context(), UpOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Receipt(t.Context(), res, "", "")
	if err != nil {
		t.Fatalf("no receipt for the fixture: %v", err)
	}
	base := dryRunOutcome(t, w)
	if again := dryRunOutcome(t, w); again != base {
		t.Fatalf("two dry runs of one project differ:\n%s\n%s", base, again)
	}
	if digest(t, r) != r.Inputs {
		t.Fatal("the receipt's inputs changed without a change")
	}
	for _, path := range mutationTargets(t, w.dir, r) {
		rel := displayPath(w.dir, path)
		for _, m := range targetMutations(path) {
			t.Run(rel+"/"+m.name, func(t *testing.T) {
				ref := digest(t, r) // restoring a file changes its ctime: the baseline is the state before this mutation
				restore := snapshot(t, path)
				if err := m.change(path); err != nil {
					t.Fatal(err)
				}
				handsOver := digest(t, r) != ref
				changed := dryRunOutcome(t, w)
				restore()
				t.Logf("full up differs: %v; hands over: %v", changed != base, handsOver)
				if changed != base && !handsOver {
					t.Errorf("%s %s: a full up would now differ, and the receipt still matches (the fast path would say nothing changed)\nbefore: %s\nafter:  %s",
						m.name, rel, base, changed)
				}
				if m.sentOnly && slices.Contains(notSent, rel) {
					if changed != base {
						t.Errorf("%s %s: a file no build sends changed the full up: %s", m.name, rel, changed)
					}
					if handsOver {
						t.Errorf("%s %s: a file no build sends made the fast path hand over", m.name, rel)
					}
				}
			})
		}
	}
}

// waitFSClock returns once the file system's clock in dir has moved past
// the time of every file written so far, so that the next open's
// fastup.FSNow is later than all of them (the kernel's clock is coarse: a
// file written in the same tick as the open's clock reads as written
// while it ran).
func waitFSClock(t *testing.T, dir string) {
	t.Helper()
	start := fastup.FSNow(dir)
	for !fastup.FSNow(dir).After(start) {
		time.Sleep(time.Millisecond)
	}
}

// readFixture reads every regular file under dir, hidden ones included.
func readFixture(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// mutationTargets are every regular file under dir now (the lock, the
// state directory's files included), every file the receipt names,
// present or not, and a new file in each directory it walks (a build
// context, a tree).
func mutationTargets(t *testing.T, dir string, r *fastup.Receipt) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, r.Files...)
	for _, d := range slices.Concat(r.Trees, r.Contexts) {
		out = append(out, filepath.Join(d, "mutation-new.txt"))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// targetMutations are the mutations of a file that exists, or its
// creation.
func targetMutations(path string) []mutation {
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode().IsRegular():
		return mutations
	case err != nil:
		return []mutation{{"create", func(p string) error {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			return os.WriteFile(p, []byte("MUTATED=1\n"), 0o644)
		}, false}}
	}
	return nil // a directory the receipt stats: its entries are files of their own
}

// snapshot keeps path's content, mode and modification time (or its
// absence) and returns what puts them back.
func snapshot(t *testing.T, path string) func() {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		return func() {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := os.WriteFile(path, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
}

// digest is the fingerprint of the receipt's inputs now: what
// fastup.Check compares with the receipt's Inputs.
func digest(t *testing.T, r *fastup.Receipt) string {
	t.Helper()
	st, err := fastup.Fingerprint(r.Files, r.Trees, r.Skip, r.Contexts)
	if err != nil {
		return "error: " + err.Error() // Check hands over on an error too
	}
	return st.Digest
}

// dryRunOutcome is what a full `up --dry-run` of w says now: its error,
// or its changes, warnings and endpoints.
func dryRunOutcome(t *testing.T, w *world) string {
	t.Helper()
	p, err := Open(t.Context(), w.opts)
	if err != nil {
		return "open: " + err.Error()
	}
	defer p.Close()
	res, err := p.Up(t.Context(), UpOptions{DryRun: true})
	if err != nil {
		return "up: " + err.Error()
	}
	out, err := json.Marshal(struct {
		C, W, E any
	}{res.Changes, res.Warnings, res.Endpoints})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func displayPath(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}
