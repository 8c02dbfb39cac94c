package safefile

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// ReadNoLinks reads the regular file p, which must be inside dir, whole and
// up to limit bytes, refusing a symbolic link at p or at any directory on
// the way from dir to it (ErrLink): for files devenv hands on to others as
// they are, such as a Dockerfile whose base images it pins, where a link
// would make what was read and what is sent two different files.
func ReadNoLinks(dir, p string, limit int64) ([]byte, error) {
	r, err := OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer func() { _ = r.Close() }()
	rel, err := r.Rel(p)
	if err != nil {
		return nil, err
	}
	if err := r.noLinks(p, rel); err != nil {
		return nil, err
	}
	return r.ReadFile(p, limit)
}

// noLinks refuses a link at any part of rel (relative to the root).
func (r *Root) noLinks(p, rel string) error {
	cur := ""
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		cur = filepath.Join(cur, part)
		fi, err := r.root.Lstat(cur)
		if err != nil {
			return r.explain(p, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := r.root.Readlink(cur)
			return &Error{Path: filepath.Join(r.dir, cur), Problem: "is a symbolic link (to " + target + "): devenv does not read " +
				filepath.Base(p) + " through links; put the file itself there", Err: ErrLink}
		}
	}
	return nil
}
