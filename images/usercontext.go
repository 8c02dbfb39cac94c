package images

import (
	"archive/tar"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/safefile"
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
// dockerfile_inline, or a Dockerfile outside the context, comes first, in
// place of any file of its name (outsideEntries).
func userEntries(in Input) ([]entry, error) {
	dir := in.userContext()
	dfName := in.userDockerfileName()
	in.Reads.Context(dir)
	in.Reads.File(in.UserDockerfile)
	var out []entry
	switch {
	case in.UserDockerfileInline != "":
		out = append(out, entry{name: dfName, typ: tar.TypeReg, mode: 0o644, data: []byte(in.UserDockerfileInline)})
	case in.dockerfileOutside():
		data, err := safefile.ReadFile(in.UserDockerfile, safefile.MaxConfig)
		if err != nil {
			return nil, fmt.Errorf("Dockerfile: %w; fix build: in devenv.yaml or the compose file", err)
		}
		out = append(out, entry{name: dfName, typ: tar.TypeReg, mode: 0o644, data: data})
	default:
		if _, err := os.Stat(in.UserDockerfile); err != nil {
			return nil, fmt.Errorf("Dockerfile: %w; fix build: in devenv.yaml or the compose file", err)
		}
	}
	ignore, err := loadIgnore(dir)
	if err != nil {
		return nil, err
	}
	forced, err := patternmatcher.New(alwaysExcluded)
	if err != nil {
		return nil, err
	}
	sent := len(out) > 0 // the Dockerfile is an entry of its own
	walk := func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		if sent && rel == dfName {
			return nil // the inline or outside Dockerfile stands there
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
	if in.dockerfileOutside() {
		return hideDockerfile(out, dfName)
	}
	return out, nil
}

// outsideDockerfile is where a Dockerfile from outside the build context
// goes in it. docker build (and Compose's classic build) sends such a
// Dockerfile as ".dockerfile.<random>"; devenv's name is fixed, so that
// the same inputs give the same context and tag.
const outsideDockerfile = ".dockerfile.devenv"

// hideDockerfile lists the Dockerfile sent from outside the context in the
// context's .dockerignore (made when there is none, listing itself), as
// docker build does: the engine reads the Dockerfile, then removes the
// files .dockerignore names of the two from what the build's COPY sees.
func hideDockerfile(entries []entry, name string) ([]entry, error) {
	for i, e := range entries {
		if e.name != ".dockerignore" || e.typ != tar.TypeReg {
			continue
		}
		data, err := safefile.ReadFile(e.path, safefile.MaxConfig)
		if err != nil {
			return nil, fmt.Errorf("build context: %w", err)
		}
		entries[i] = entry{name: e.name, typ: tar.TypeReg, mode: e.mode, data: append(data, []byte("\n"+name+"\n")...)}
		return entries, nil
	}
	return append(entries, entry{name: ".dockerignore", typ: tar.TypeReg, mode: 0o644, data: []byte(".dockerignore\n" + name + "\n")}), nil
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
	case info.Mode()&fs.ModeNamedPipe != 0:
		return entry{name: rel, typ: tar.TypeFifo, mode: fileMode(info.Mode())}, true, nil // as docker build sends it
	case info.Mode()&fs.ModeSocket != 0:
		return entry{}, false, nil // docker build leaves sockets out (a tar cannot hold one)
	default:
		return entry{}, false, fmt.Errorf("%s is a device or another special file, which a build context cannot hold; add it to .dockerignore", p)
	}
}
