package remote

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/moby/patternmatcher"
)

// NewPathSyncer syncs one develop.watch rule (Compose Watch's sync
// actions): the files under src on this machine (a folder, or one file)
// into the folder target of container, as Compose copies them, owned by the
// container's user. The image's files are the start: only what changes
// after this call is sent, unless initial (initial_sync) sends everything
// first. ignore are the rule's patterns, relative to src; .git and .devenv
// are never sent. Nothing is recorded in the container.
func NewPathSyncer(ctx context.Context, eng engine.Engine, src, container, target string, ignore []string, initial bool) (*Syncer, error) {
	if !path.IsAbs(target) {
		return nil, fmt.Errorf("develop.watch target %q of %s: not an absolute path in the container", target, src)
	}
	arch, err := engine.ArchiverOf(eng)
	if err != nil {
		return nil, err
	}
	dir, only, tgt, pm, err := pathRule(src, target, ignore)
	if err != nil {
		return nil, err
	}
	s := &Syncer{eng: eng, arch: arch, dir: dir, container: container, ignore: pm, seen: map[string]local{},
		target: tgt, pathRule: true, only: only, remote: map[string]entry{}}
	if s.uid, s.gid, err = arch.Owner(ctx, container); err != nil {
		return nil, err
	}
	// the target folder must exist for the copy; where the container's
	// user cannot make it, the first copy says so
	_, _ = eng.Exec(ctx, container, engine.ExecOptions{Cmd: []string{"mkdir", "-p", "--", tgt}})
	if !initial {
		if err := s.takeAsSent(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// NewPathWatcher notices what changes under src (a folder, or one file)
// after this call, skipping the ignore patterns (relative to src) and .git
// and .devenv, and sends nothing: develop.watch's restart and rebuild
// actions. Its Sync and Watch report the changes; no engine is needed.
func NewPathWatcher(src string, ignore []string) (*Syncer, error) {
	dir, only, _, pm, err := pathRule(src, "", ignore)
	if err != nil {
		return nil, err
	}
	s := &Syncer{dir: dir, ignore: pm, pathRule: true, only: only, detectOnly: true, remote: map[string]entry{}}
	if err := s.takeAsSent(); err != nil {
		return nil, err
	}
	return s, nil
}

// takeAsSent scans the files now and records them as already on the
// other side, so only later changes count.
func (s *Syncer) takeAsSent() error {
	files, _, err := s.scan()
	if err != nil {
		return err
	}
	for p, l := range files {
		s.remote[p] = l.entry
	}
	s.seen = files
	return nil
}

// pathRule is what a develop.watch rule's path means: the folder scanned,
// the one file in it when src is a file, the container folder the files go
// to (target "" when nothing is sent), and the ignore patterns.
func pathRule(src, target string, ignore []string) (dir, only, tgt string, pm *patternmatcher.PatternMatcher, err error) {
	fi, err := os.Lstat(src)
	if err != nil {
		return "", "", "", nil, fmt.Errorf("develop.watch path %s: %w", src, err)
	}
	dir, tgt = src, path.Clean(target)
	if !fi.IsDir() {
		// a file rule's target is the file itself, as Compose copies it
		dir, only, tgt = filepath.Dir(src), filepath.Base(src), path.Dir(path.Clean(target))
		if target != "" && path.Base(target) != only {
			return "", "", "", nil, fmt.Errorf("develop.watch path %s is a file: devenv syncs it only to a target of the same name (%s/%s), not %s", src, tgt, only, target)
		}
	}
	pats := append(slicesClone(alwaysIgnored), ignore...)
	for i, p := range pats {
		pats[i] = strings.TrimPrefix(strings.TrimSuffix(p, "/"), "/")
	}
	if pm, err = patternmatcher.New(pats); err != nil {
		return "", "", "", nil, fmt.Errorf("develop.watch ignore patterns of %s: %w", src, err)
	}
	return dir, only, tgt, pm, nil
}
