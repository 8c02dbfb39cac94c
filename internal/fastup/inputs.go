package fastup

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// MaxEntries bounds a fingerprint's walk: inputs larger than this (a
// build context holding a virtualenv or a data directory that its
// .dockerignore does not leave out) get no receipt, and their ups always
// run devenv whole.
const MaxEntries = 20000

// ErrTooLarge is the walk passing MaxEntries.
var ErrTooLarge = errors.New("more than 20000 files to watch")

// Stamp is the fingerprint of the inputs and the newest change among them.
type Stamp struct {
	Digest string
	Newest time.Time // latest modification or status change seen
}

// Fingerprint stats each of files (absent is a state too; a link is
// followed to its target, both recorded) and walks each of trees and
// contexts, without following links: every entry's path, type,
// permissions, size, modification and status-change times and inode (and,
// where the system has no status-change time, the content of small files)
// go into one digest. In trees, directories whose name starts with "."
// are skipped below a tree's top (.git, .devenv, .venv: not plan inputs,
// or named in files), and directories in skip (a container's writable
// bind mounts: what the container writes there is not an input) are left
// out whole. contexts are build contexts, walked as the build sends them:
// hidden files included, skip not applied, only what the context's
// .dockerignore excludes left out. A file rewritten with the same bytes
// still changes the digest: the check is cheap and on the safe side.
func Fingerprint(files, trees, skip, contexts []string) (Stamp, error) {
	return fingerprint(files, trees, skip, contexts, MaxEntries)
}

func fingerprint(files, trees, skip, contexts []string, maxEntries int) (Stamp, error) {
	h := sha256.New()
	var st Stamp
	n := 0
	add := func(kind, path string, fi fs.FileInfo) error {
		if n++; n > maxEntries {
			return ErrTooLarge
		}
		if fi == nil {
			fmt.Fprintf(h, "%s %q absent\n", kind, path)
			return nil
		}
		ctime, ino := sysStat(fi)
		fmt.Fprintf(h, "%s %q %v %d %d %d %d %s\n", kind, path, fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), ctime, ino, contentStamp(path, fi))
		st.Newest = latest(st.Newest, fi.ModTime(), time.Unix(0, ctime))
		return nil
	}
	for _, f := range sortedUnique(files) {
		if err := addFile(f, add); err != nil {
			return Stamp{}, err
		}
	}
	for _, root := range sortedUnique(trees) {
		if err := walk(root, skipSet(skip), add); err != nil {
			return Stamp{}, err
		}
	}
	for _, root := range sortedUnique(contexts) {
		if err := walkContext(root, add); err != nil {
			return Stamp{}, err
		}
	}
	st.Digest = hex.EncodeToString(h.Sum(nil))
	return st, nil
}

// addFile records f as it is, and where f is a link (or below one) the
// file it leads to, so an edit of the target is seen.
func addFile(f string, add func(kind, path string, fi fs.FileInfo) error) error {
	fi, err := os.Lstat(f)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := add("f", f, fi); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(f)
	if err != nil || real == f {
		return nil // absent, dangling (recorded as the link), or no link on the way
	}
	fi, err = os.Stat(real)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return add("l", real, fi)
}

func skipSet(dirs []string) map[string]bool {
	out := map[string]bool{}
	for _, d := range dirs {
		out[filepath.Clean(d)] = true
	}
	return out
}

func walk(root string, skip map[string]bool, add func(kind, path string, fi fs.FileInfo) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == root {
			return add("t", p, nil)
		}
		if err != nil {
			return err
		}
		if d.IsDir() && (skip[p] || p != root && strings.HasPrefix(d.Name(), ".")) {
			return fs.SkipDir
		}
		return addEntry("t", p, d, add)
	})
}

func addEntry(kind, p string, d fs.DirEntry, add func(kind, path string, fi fs.FileInfo) error) error {
	fi, err := d.Info()
	if errors.Is(err, fs.ErrNotExist) {
		return nil // gone while walking: the next fingerprint differs anyway
	}
	if err != nil {
		return err
	}
	return add(kind, p, fi)
}

// walkContext walks a build context as the build sends it: every entry,
// hidden ones included, except what the .dockerignore at its top
// excludes (moby/patternmatcher, the builder's own matcher; the
// .dockerignore itself is an entry like any other).
func walkContext(root string, add func(kind, path string, fi fs.FileInfo) error) error {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	ignore, err := loadIgnore(root)
	if err != nil {
		return err
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == root {
			return add("c", p, nil)
		}
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".devenv" {
			return fs.SkipDir // devenv's state (the receipt itself); what a build uses of it is in files
		}
		if rel, _ := filepath.Rel(root, p); ignore != nil && rel != "." {
			m, err := ignore.MatchesOrParentMatches(filepath.ToSlash(rel))
			if err != nil {
				return err
			}
			if m && d.IsDir() && !ignore.Exclusions() {
				return fs.SkipDir
			}
			if m {
				return nil
			}
		}
		return addEntry("c", p, d, add)
	})
}

// loadIgnore reads dir/.dockerignore (nil when there is none).
func loadIgnore(dir string) (*patternmatcher.PatternMatcher, error) {
	f, err := os.Open(filepath.Join(dir, ".dockerignore"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	patterns, err := ignorefile.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, err
	}
	return patternmatcher.New(patterns)
}

func latest(ts ...time.Time) time.Time {
	var out time.Time
	for _, t := range ts {
		if t.After(out) {
			out = t
		}
	}
	return out
}

func sortedUnique(in []string) []string {
	out := slices.Clone(in)
	slices.Sort(out)
	return slices.Compact(out)
}

// EnvDigest is the digest of an environment (KEY=VALUE entries), apart
// from the variables a shell changes on its own between two commands and
// DEVENV_FASTUP, which only switches this check off. Interpolation in
// compose files and devenv.yaml may read any variable, so any other
// change runs devenv whole.
func EnvDigest(environ []string) string {
	var kept []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "_", "OLDPWD", "PWD", "SHLVL", EnvSwitch:
			continue
		}
		kept = append(kept, kv)
	}
	slices.Sort(kept)
	sum := sha256.Sum256([]byte(strings.Join(kept, "\x00")))
	return hex.EncodeToString(sum[:])
}

// EnvSwitch, set to 0, makes every up run devenv whole.
const EnvSwitch = "DEVENV_FASTUP"

// DockerConfigInputs are the docker CLI configuration that decides which
// engine devenv talks to (config.json's currentContext and the contexts'
// endpoints), as a file and a tree for Fingerprint.
func DockerConfigInputs(getenv func(string) string) (file, tree string) {
	dir := getenv("DOCKER_CONFIG")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		dir = filepath.Join(home, ".docker")
	}
	return filepath.Join(dir, "config.json"), filepath.Join(dir, "contexts", "meta")
}

// FSNow is the file system's own clock in dir: the modification time of
// a file made there and removed at once. A receipt's freshness is judged
// against it, taken before the first input is read: file timestamps come
// from the kernel's coarse clock, which lags Go's by milliseconds, so a
// file edited just after the read can carry an earlier time than Go's
// clock did at the read. The zero time when dir does not exist (it is not
// made: a command that writes nothing leaves nothing) or refuses the file.
func FSNow(dir string) time.Time {
	f, err := os.CreateTemp(dir, ".clock-*")
	if err != nil {
		return time.Time{}
	}
	defer func() { _ = os.Remove(f.Name()) }()
	fi, err := f.Stat()
	_ = f.Close()
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
