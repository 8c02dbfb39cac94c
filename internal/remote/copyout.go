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
// this machine, as `docker cp CONTAINER:SRC DEST` does: dest is a folder
// that receives src's last element. Only regular files and folders are
// written, never through a link, never outside dest.
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
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return Copied{}, err
	}
	return extract(tar.NewReader(rc), dest)
}

func extract(tr *tar.Reader, dest string) (Copied, error) {
	var c Copied
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil {
			return c, err
		}
		name := path.Clean(hdr.Name)
		if path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			return c, fmt.Errorf("the container's archive names %q, outside the destination", hdr.Name)
		}
		target := filepath.Join(dest, filepath.FromSlash(name))
		if err := noLinkBetween(dest, target); err != nil {
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
