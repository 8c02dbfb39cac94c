package remote

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/internal/engine"
)

// Copied is what CopyOut wrote.
type Copied struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// Skipped are entries not written: links and special files.
	Skipped []string `json:"skipped,omitempty"`
}

// CopyOut copies src (a file or a folder) out of container id into dest on
// this machine by `docker cp CONTAINER:SRC DEST`'s rules: an existing
// folder receives src under its own name (src ending in /. : its
// contents); an existing file is overwritten by a file; a dest that does
// not exist is src's new name, in a folder that must exist (a dest ending
// in / must be an existing folder for a file). Only regular files and
// folders are written, never through a link, never outside dest.
func CopyOut(ctx context.Context, eng engine.Engine, id, src, dest string) (Copied, error) {
	arch, err := engine.ArchiverOf(eng)
	if err != nil {
		return Copied{}, err
	}
	rc, err := arch.CopyFrom(ctx, id, src)
	if err != nil {
		return Copied{}, err
	}
	defer func() { _ = rc.Close() }()
	return extractTo(tar.NewReader(rc), dest, strings.HasSuffix(src, "/."))
}

// extractTo writes the container's archive of one file or folder (its
// first entry names it) where placeCopy puts it for dest.
func extractTo(tr *tar.Reader, dest string, contents bool) (Copied, error) {
	first, err := tr.Next()
	if errors.Is(err, io.EOF) {
		return Copied{}, nil
	}
	if err != nil {
		return Copied{}, err
	}
	root, _, _ := strings.Cut(path.Clean(first.Name), "/")
	dir := first.Typeflag == tar.TypeDir || path.Clean(first.Name) != root
	into, name, err := placeCopy(dest, root, dir, contents || root == ".")
	if err != nil {
		return Copied{}, err
	}
	return extract(tr, first, into, func(n string) (string, bool) {
		switch {
		case n == root:
			return name, true
		case root == ".":
			return path.Join(name, n), true
		case strings.HasPrefix(n, root+"/"):
			return path.Join(name, n[len(root)+1:]), true
		}
		return "", false
	})
}

// placeCopy is where a copied file or folder (dir) named root lands for
// dest, by docker cp's rules: into is the existing folder written under,
// name the copy's name in it ("" with contents: src's entries go right
// into into).
func placeCopy(dest, root string, dir, contents bool) (into, name string, err error) {
	fi, err := os.Stat(dest)
	switch {
	case err == nil && fi.IsDir():
		if dir && contents {
			return dest, "", nil
		}
		return dest, root, nil
	case err == nil && dir:
		return "", "", fmt.Errorf("%s is a file: a folder cannot be copied onto it (give a folder, or a name that does not exist yet)", dest)
	case err == nil:
		return filepath.Dir(dest), filepath.Base(dest), nil
	case !errors.Is(err, os.ErrNotExist):
		return "", "", err
	case !dir && strings.HasSuffix(dest, string(filepath.Separator)):
		return "", "", fmt.Errorf("the folder %s does not exist: a file is copied into an existing folder, or to a new name without a trailing /", dest)
	}
	parent := filepath.Dir(filepath.Clean(dest))
	if pi, err := os.Stat(parent); err != nil || !pi.IsDir() {
		return "", "", fmt.Errorf("%s does not exist, nor does its folder %s: docker cp makes no folders above the copy; create %s first", dest, parent, parent)
	}
	return parent, filepath.Base(filepath.Clean(dest)), nil
}

// extract writes first and the rest of tr under into, each entry at the
// path rename gives it.
func extract(tr *tar.Reader, first *tar.Header, into string, rename func(string) (string, bool)) (Copied, error) {
	var c Copied
	for hdr := first; ; {
		name := path.Clean(hdr.Name)
		rel, ok := rename(name)
		if !ok || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			return c, fmt.Errorf("the container's archive names %q, outside the destination", hdr.Name)
		}
		target := filepath.Join(into, filepath.FromSlash(rel))
		if err := noLinkBetween(into, target); err != nil {
			return c, err
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return c, err
			}
		case tar.TypeReg:
			if err := writeFile(target, tr, hdr); err != nil {
				return c, err
			}
			c.Files++
			c.Bytes += hdr.Size
		default:
			c.Skipped = append(c.Skipped, name)
		}
		var err error
		if hdr, err = tr.Next(); errors.Is(err, io.EOF) {
			return c, nil
		} else if err != nil {
			return c, err
		}
	}
}

// noLinkBetween refuses a target whose existing parents under dest (or
// itself) are symbolic links.
func noLinkBetween(dest, target string) error {
	rel, err := filepath.Rel(dest, target)
	if err != nil {
		return err
	}
	cur := dest
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: devenv does not write through links", cur)
		}
	}
	return nil
}

// writeFile writes through a temporary file and a rename, so a reader
// never sees half a file.
func writeFile(target string, r io.Reader, hdr *tar.Header) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".devenv-*")
	if err != nil {
		return err
	}
	_, err = io.CopyN(tmp, r, hdr.Size)
	if err == nil {
		err = tmp.Chmod(os.FileMode(hdr.Mode).Perm())
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}
