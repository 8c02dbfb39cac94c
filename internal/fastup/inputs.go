package fastup

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// MaxEntries bounds a fingerprint's walk: a project tree larger than this
// (a virtualenv or a data directory checked out inside it) gets no
// receipt, and its ups always run devenv whole.
const MaxEntries = 20000

// ErrTooLarge is the walk passing MaxEntries.
var ErrTooLarge = errors.New("more than 20000 files to watch")

// Stamp is the fingerprint of the inputs and the newest change among them.
type Stamp struct {
	Digest string
	Newest time.Time // latest modification or status change seen
}

// Fingerprint stats each of files (absent is a state too) and walks each
// of trees, without following links: every entry's path, type,
// permissions, size, modification and status-change times and inode go
// into one digest. Directories whose name starts with "." are skipped
// below a tree's top (.git, .devenv, .venv: not plan inputs, or named in
// files). A file rewritten with the same bytes still changes the digest:
// the check is cheap and on the safe side.
//
// Directories in skip (a container's writable bind mounts: what the
// container writes there is not an input) are left out of the walk,
// whole; files named in files are stat'ed wherever they are.
func Fingerprint(files, trees, skip []string) (Stamp, error) {
	return fingerprint(files, trees, skip, MaxEntries)
}

func fingerprint(files, trees, skip []string, maxEntries int) (Stamp, error) {
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
		fmt.Fprintf(h, "%s %q %v %d %d %d %d\n", kind, path, fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), ctime, ino)
		st.Newest = latest(st.Newest, fi.ModTime(), time.Unix(0, ctime))
		return nil
	}
	for _, f := range sortedUnique(files) {
		fi, err := os.Lstat(f)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Stamp{}, err
		}
		if err := add("f", f, fi); err != nil {
			return Stamp{}, err
		}
	}
	for _, root := range sortedUnique(trees) {
		if err := walk(root, skipSet(skip), add); err != nil {
			return Stamp{}, err
		}
	}
	st.Digest = hex.EncodeToString(h.Sum(nil))
	return st, nil
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
		fi, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // gone while walking: the next fingerprint differs anyway
		}
		if err != nil {
			return err
		}
		return add("t", p, fi)
	})
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
