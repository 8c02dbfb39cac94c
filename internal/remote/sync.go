// Package remote makes a project work against an engine on another
// machine: its files synced into the project's workspace volume (by
// content hash, then as they change), files copied back out of containers,
// and the services' ports forwarded over ssh.
package remote

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/moby/patternmatcher"
)

// Workspace is where the synced volume is mounted in the services.
const Workspace = "/workspace"

// ManifestName is the file in the volume recording what it holds (path ->
// sha256), so a later sync, from this clone or after a restart, sends only
// what differs.
const ManifestName = ".devenv-sync.json"

// Limits of what one sync reads.
const (
	maxFiles    = 200_000
	maxManifest = 64 << 20
)

// IgnoreFiles are read at the project's root, in this order; their lines
// follow .dockerignore's rules (moby/patternmatcher), `#` starts a comment.
var IgnoreFiles = []string{".devenvignore", ".dockerignore", ".gitignore"}

// alwaysIgnored are never synced: the repository, devenv's own state (with
// 0600 files that stay on this machine) and the manifest.
var alwaysIgnored = []string{".git", ".devenv", ManifestName}

// entry is one synced file.
type entry struct {
	Hash string      `json:"sha256"`
	Mode fs.FileMode `json:"mode"`
}

// local is what a scan knows of a file, so an unchanged file is not hashed again.
type local struct {
	size  int64
	mtime time.Time
	entry
}

// Change is what one sync did.
type Change struct {
	Sent    []string `json:"sent,omitempty"`    // paths copied (new or changed)
	Deleted []string `json:"deleted,omitempty"` // paths removed from the volume
	Skipped []string `json:"skipped,omitempty"` // links and special files, not synced
	Bytes   int64    `json:"bytes"`
}

// Empty reports whether the sync changed nothing.
func (c Change) Empty() bool { return len(c.Sent) == 0 && len(c.Deleted) == 0 }

// Syncer keeps a project directory and a container's /workspace the same.
type Syncer struct {
	eng       engine.Engine
	arch      engine.Archiver
	dir       string
	container string
	ignore    *patternmatcher.PatternMatcher
	uid, gid  int
	remote    map[string]entry
	seen      map[string]local
	target    string // the container folder synced into
	// First is true when the volume held no manifest: nothing was synced
	// into it before.
	First bool
}

// NewSyncer reads the ignore files and the volume's manifest through
// container (running, with the workspace volume at /workspace).
func NewSyncer(ctx context.Context, eng engine.Engine, dir, container string) (*Syncer, error) {
	arch, err := engine.ArchiverOf(eng)
	if err != nil {
		return nil, err
	}
	pm, err := ignoreMatcher(dir)
	if err != nil {
		return nil, err
	}
	s := &Syncer{eng: eng, arch: arch, dir: dir, container: container, ignore: pm, seen: map[string]local{}, target: Workspace}
	if s.uid, s.gid, err = arch.Owner(ctx, container); err != nil {
		return nil, err
	}
	if s.remote, err = s.readManifest(ctx); err != nil {
		return nil, err
	}
	s.First = s.remote == nil
	if s.remote == nil {
		s.remote = map[string]entry{}
	}
	return s, nil
}

// ignoreMatcher is alwaysIgnored plus the root's ignore files.
func ignoreMatcher(dir string) (*patternmatcher.PatternMatcher, error) {
	pats := slicesClone(alwaysIgnored)
	for _, name := range IgnoreFiles {
		b, err := readSmall(filepath.Join(dir, name), 1<<20)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			pats = append(pats, strings.TrimPrefix(strings.TrimSuffix(line, "/"), "/"))
		}
	}
	pm, err := patternmatcher.New(pats)
	if err != nil {
		return nil, fmt.Errorf("ignore patterns of %s: %w", dir, err)
	}
	return pm, nil
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// readSmall reads a regular file (never through a link) of at most limit bytes.
func readSmall(name string, limit int64) ([]byte, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than %d", name, fi.Size(), limit)
	}
	return os.ReadFile(name)
}

// readManifest is the volume's manifest; nil when it has none.
func (s *Syncer) readManifest(ctx context.Context) (map[string]entry, error) {
	rc, err := s.arch.CopyFrom(ctx, s.container, path.Join(Workspace, ManifestName))
	if errors.Is(err, engine.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = rc.Close() }()
	tr := tar.NewReader(rc)
	hdr, err := tr.Next()
	if err != nil || hdr.Typeflag != tar.TypeReg || hdr.Size > maxManifest {
		return nil, nil // unreadable: sync everything again
	}
	m := map[string]entry{}
	if err := json.NewDecoder(io.LimitReader(tr, maxManifest)).Decode(&m); err != nil {
		return nil, nil
	}
	return m, nil
}

// scan walks the project: every regular file not ignored, with its hash
// (recomputed only when size or mtime moved). Links are never followed.
func (s *Syncer) scan() (map[string]local, []string, error) {
	files := map[string]local{}
	var skipped []string
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(s.dir, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if ok, _ := s.ignore.MatchesOrParentMatches(rel); ok {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			skipped = append(skipped, rel)
			return nil
		}
		if len(files) >= maxFiles {
			return fmt.Errorf("more than %d files to sync under %s: add what need not reach the engine to .devenvignore", maxFiles, s.dir)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		l, ok := s.seen[rel]
		if !ok || l.size != fi.Size() || !l.mtime.Equal(fi.ModTime()) || l.Mode != fi.Mode().Perm() {
			h, err := hashFile(p)
			if err != nil {
				return err
			}
			l = local{size: fi.Size(), mtime: fi.ModTime(), entry: entry{Hash: h, Mode: fi.Mode().Perm()}}
		}
		files[rel] = l
		return nil
	})
	return files, skipped, err
}

func hashFile(p string) (string, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Sync sends what differs between the directory and the volume (by hash),
// removes from the volume what the directory no longer has, and records the
// new manifest there.
func (s *Syncer) Sync(ctx context.Context) (Change, error) {
	files, skipped, err := s.scan()
	if err != nil {
		return Change{}, err
	}
	ch := Change{Skipped: skipped}
	for p, l := range files {
		if r, ok := s.remote[p]; !ok || r != l.entry {
			ch.Sent = append(ch.Sent, p)
			ch.Bytes += l.size
		}
	}
	for p := range s.remote {
		if _, ok := files[p]; !ok {
			ch.Deleted = append(ch.Deleted, p)
		}
	}
	sort.Strings(ch.Sent)
	sort.Strings(ch.Deleted)
	s.seen = files
	if ch.Empty() {
		return ch, nil
	}
	if err := s.remove(ctx, ch.Deleted); err != nil {
		return ch, err
	}
	manifest := map[string]entry{}
	for p, l := range files {
		manifest[p] = l.entry
	}
	if err := s.send(ctx, ch.Sent, manifest); err != nil {
		return ch, err
	}
	s.remote = manifest
	return ch, nil
}

// send copies the files and the manifest into /workspace in one archive,
// owned by the container's user, with their directories.
func (s *Syncer) send(ctx context.Context, paths []string, manifest map[string]entry) error {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(s.writeArchive(pw, paths, manifest)) }()
	err := s.arch.CopyTo(ctx, s.container, s.target, pr)
	_ = pr.CloseWithError(err)
	return err
}

func (s *Syncer) writeArchive(w io.Writer, paths []string, manifest map[string]entry) error {
	tw := tar.NewWriter(w)
	dirs := map[string]bool{}
	now := time.Now().Truncate(time.Second)
	for _, p := range paths {
		for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	for _, d := range sorted {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755, Uid: s.uid, Gid: s.gid, ModTime: now}); err != nil {
			return err
		}
	}
	for _, p := range paths {
		if err := s.addFile(tw, p); err != nil {
			return err
		}
	}
	m, err := json.Marshal(manifest)
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: ManifestName, Mode: 0o644, Size: int64(len(m)), Uid: s.uid, Gid: s.gid, ModTime: now}); err != nil {
		return err
	}
	if _, err := tw.Write(m); err != nil {
		return err
	}
	return tw.Close()
}

// addFile writes one file as it is now (its size read from the open file,
// so a file changed since the scan goes as it is, and the next sync fixes
// its hash).
func (s *Syncer) addFile(tw *tar.Writer, p string) error {
	f, err := os.OpenFile(filepath.Join(s.dir, filepath.FromSlash(p)), os.O_RDONLY|noFollow, 0)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: p, Mode: int64(fi.Mode().Perm()), Size: fi.Size(), Uid: s.uid, Gid: s.gid, ModTime: fi.ModTime()}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err = io.CopyN(tw, f, fi.Size())
	return err
}

// remove deletes paths under /workspace in the container (rm -f, in
// batches).
func (s *Syncer) remove(ctx context.Context, paths []string) error {
	for len(paths) > 0 {
		n := min(len(paths), 500)
		cmd := []string{"rm", "-f", "--"}
		for _, p := range paths[:n] {
			cmd = append(cmd, path.Join(s.target, p))
		}
		var errOut bytes.Buffer
		code, err := s.eng.Exec(ctx, s.container, engine.ExecOptions{Cmd: cmd, User: fmt.Sprintf("%d:%d", s.uid, s.gid), Stderr: &errOut})
		if err != nil {
			return err
		}
		if code != 0 {
			return fmt.Errorf("remove %d file(s) from %s in the container: rm exited %d: %s", n, s.target, code, strings.TrimSpace(errOut.String()))
		}
		paths = paths[n:]
	}
	return nil
}

// Watch syncs now and then every interval until ctx ends, handing each
// change that did something to onChange.
func (s *Syncer) Watch(ctx context.Context, interval time.Duration, onChange func(Change) error) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		ch, err := s.Sync(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if !ch.Empty() {
			if err := onChange(ch); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
