package images

import (
	"archive/tar"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// alwaysExcluded never enter a user's build context, whatever .dockerignore
// says: version control, env files with secrets, keys, devenv's own state
// and the files its exports write (compose.devenv.yaml, devcontainer.json:
// an export names the image devenv builds, so were it in the context, each
// export would change that image and the next up rebuild and recreate it).
var alwaysExcluded = []string{"**/.git", "**/.env*", "**/*.pem", "**/*.key", "**/.devenv",
	"**/compose.devenv.yaml", "**/.devcontainer/devcontainer.json"}

// userEntries lists the context of a user's own Dockerfile: its build
// context (the Dockerfile's directory unless compose names another),
// filtered by the .dockerignore there and by alwaysExcluded; a compose
// dockerfile_inline comes first, in place of any file of its name.
func userEntries(in Input) ([]entry, error) {
	dir := in.userContext()
	dfName, err := in.userDockerfileName()
	if err != nil {
		return nil, err
	}
	var out []entry
	if in.UserDockerfileInline != "" {
		out = append(out, entry{name: dfName, typ: tar.TypeReg, mode: 0o644, data: []byte(in.UserDockerfileInline)})
	} else if _, err := os.Stat(in.UserDockerfile); err != nil {
		return nil, fmt.Errorf("Dockerfile: %w; fix build: in devenv.yaml or the compose file", err)
	}
	ignore, err := loadIgnore(dir)
	if err != nil {
		return nil, err
	}
	forced, err := patternmatcher.New(alwaysExcluded)
	if err != nil {
		return nil, err
	}
	walk := func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		if in.UserDockerfileInline != "" && rel == dfName {
			return nil // the inline Dockerfile stands there
		}
		skip, err := excluded(rel, d.IsDir(), rel == dfName, forced, ignore)
		if skip || err != nil {
			return err
		}
		if e, ok, err := userEntry(p, rel, d); err != nil || !ok {
			return err
		} else {
			out = append(out, e)
		}
		return nil
	}
	if err := filepath.WalkDir(dir, walk); err != nil {
		return nil, fmt.Errorf("build context %s: %w", dir, err)
	}
	return out, nil
}

// excluded reports whether rel stays out of the context; for a directory
// that can hold nothing included it returns fs.SkipDir.
func excluded(rel string, isDir, isDockerfile bool, forced, ignore *patternmatcher.PatternMatcher) (bool, error) {
	if m, err := forced.MatchesOrParentMatches(rel); err != nil || m {
		if isDir && err == nil {
			return true, fs.SkipDir
		}
		return true, err
	}
	if isDockerfile || ignore == nil {
		return false, nil
	}
	m, err := ignore.MatchesOrParentMatches(rel)
	if err != nil || !m {
		return m, err
	}
	if isDir && !ignore.Exclusions() {
		return true, fs.SkipDir
	}
	return true, nil
}

// loadIgnore reads dir/.dockerignore, or returns nil when there is none.
func loadIgnore(dir string) (*patternmatcher.PatternMatcher, error) {
	path := filepath.Join(dir, ".dockerignore")
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	patterns, err := ignorefile.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; fix the pattern", path, err)
	}
	return pm, nil
}

// userEntry describes one walked file; ok is false for nothing to add.
func userEntry(p, rel string, d fs.DirEntry) (entry, bool, error) {
	info, err := d.Info()
	if err != nil {
		return entry{}, false, err
	}
	switch {
	case d.IsDir():
		return entry{name: rel, typ: tar.TypeDir, mode: 0o755}, true, nil
	case info.Mode().IsRegular():
		return entry{name: rel, typ: tar.TypeReg, mode: fileMode(info.Mode()), path: p, size: info.Size()}, true, nil
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(p)
		return entry{name: rel, typ: tar.TypeSymlink, mode: 0o777, link: filepath.ToSlash(target)}, err == nil, err
	default:
		return entry{}, false, fmt.Errorf("%s is not a regular file, directory or symlink; add it to .dockerignore", p)
	}
}
