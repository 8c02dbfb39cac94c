package spec

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/safefile"
)

// bindInside refuses a relative bind source that exists and leads outside
// the project through a symbolic link (its own or a parent's): written as
// relative, it says "in this project", and a container must not get a
// host directory elsewhere that way. It looks through the project's rooted
// handle, which follows links only while they stay inside.
func bindInside(dir, abs string) error {
	r, err := safefile.OpenRoot(dir)
	if err != nil {
		return nil // the project directory itself is unreadable: reported elsewhere
	}
	defer func() { _ = r.Close() }()
	_, err = r.Stat(abs)
	if errors.Is(err, safefile.ErrOutside) {
		real, _ := filepath.EvalSymlinks(abs)
		return errors.New("is a symbolic link to " + real + ", outside the project directory")
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil // a permission problem is the engine's to report
	}
	return nil
}
