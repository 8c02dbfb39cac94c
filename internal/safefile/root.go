package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside means a path, or a link on the way, leads outside the
// directory it must stay in.
var ErrOutside = errors.New("outside the project directory")

// Root is the project directory opened once as an os.Root: files named in
// devenv.yaml (and compose files, env files, mirror sources) are opened
// through it, so neither "..", an absolute path nor a symbolic link can
// lead outside the project, whatever checks ran before; links that stay
// inside are followed, as a teammate's checkout has them too.
type Root struct {
	dir  string
	root *os.Root
}

// OpenRoot opens dir (the project directory).
func OpenRoot(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	return &Root{dir: abs, root: r}, nil
}

// Dir is the directory the root was opened on.
func (r *Root) Dir() string { return r.dir }

// Close releases the handle.
func (r *Root) Close() error { return r.root.Close() }

// Rel returns p (absolute, or relative to the root's directory) relative to
// it, or an ErrOutside error when p is outside it as written.
func (r *Root) Rel(p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	rel, err := filepath.Rel(r.dir, filepath.Clean(p))
	if err != nil || (rel != "." && !filepath.IsLocal(rel)) {
		return "", &Error{Path: p, Problem: "is outside the project directory " + r.dir + ": devenv reads only files inside it, so that every teammate gets the same result; copy the file into it", Err: ErrOutside}
	}
	return rel, nil
}

// Stat is os.Stat through the root: links are followed while they stay
// inside.
func (r *Root) Stat(p string) (fs.FileInfo, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return nil, err
	}
	st, err := r.root.Stat(rel)
	return st, r.explain(p, err)
}

// Open opens the regular file p through the root, without blocking, and
// refuses anything else (see Open).
func (r *Root) Open(p string) (*os.File, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return nil, err
	}
	st, err := r.root.Stat(rel)
	if err != nil {
		return nil, r.explain(p, err)
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(p, st.Mode())
	}
	f, err := r.root.OpenFile(rel, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, r.explain(p, err)
	}
	return checkOpened(p, f)
}

// ReadFile reads the regular file p through the root whole, refusing one
// over limit bytes.
func (r *Root) ReadFile(p string, limit int64) ([]byte, error) {
	f, err := r.Open(p)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return ReadAll(p, f, limit)
}

// explain turns os.Root's refusal of an escape into an error naming the
// file; other errors pass unchanged.
func (r *Root) explain(p string, err error) error {
	if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return err
	}
	if strings.Contains(err.Error(), "escapes from parent") {
		return &Error{Path: p, Problem: "leads outside the project directory " + r.dir + " (through a symbolic link or an absolute link target): devenv reads only files inside it; copy the file into the project instead of linking to it", Err: ErrOutside}
	}
	return err
}

// ReadInDir reads p, which must be inside dir, through a root of dir opened
// for this one read.
func ReadInDir(dir, p string, limit int64) ([]byte, error) {
	r, err := OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer func() { _ = r.Close() }()
	return r.ReadFile(p, limit)
}
