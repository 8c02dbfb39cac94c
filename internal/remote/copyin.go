package remote

import (
	"archive/tar"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/internal/engine"
)

// pathKind is what a path in a container is.
type pathKind int

const (
	missing pathKind = iota
	isFile
	isDir
)

// CopyIn copies src (a file or a folder on this machine) into container id
// at dest by `docker cp SRC CONTAINER:DEST`'s rules, as CopyOut does the
// other way: an existing folder receives src under its own name (src
// ending in /. : its contents), an existing file is overwritten by a file,
// a dest that does not exist is src's new name in a folder that must
// exist. The files belong to the container's user (uid, gid); links and
// special files are skipped, as CopyOut skips them.
func CopyIn(ctx context.Context, eng engine.Engine, id, src, dest string, uid, gid int) (Copied, error) {
	arch, err := engine.ArchiverOf(eng)
	if err != nil {
		return Copied{}, err
	}
	fi, err := os.Lstat(src)
	if err != nil {
		return Copied{}, err
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return Copied{}, fmt.Errorf("%s is not a file or a folder (links and special files are not copied)", src)
	}
	if _, err := eng.Inspect(ctx, id); err != nil {
		return Copied{}, err // no such container: said as the engine says it
	}
	into, name, err := placeIn(ctx, arch, id, dest, filepath.Base(filepath.Clean(src)), fi.IsDir(), strings.HasSuffix(src, string(filepath.Separator)+"."))
	if err != nil {
		return Copied{}, err
	}
	var c Copied
	pr, pw := io.Pipe()
	written := make(chan error, 1)
	go func() {
		err := writeTree(pw, src, name, uid, gid, &c)
		pw.CloseWithError(err)
		written <- err
	}()
	err = arch.CopyTo(ctx, id, into, pr)
	_ = pr.CloseWithError(cmp.Or(err, io.ErrClosedPipe)) // a writer still going stops
	return c, cmp.Or(err, <-written)
}

// placeIn is placeCopy for a path in the container.
func placeIn(ctx context.Context, arch engine.Archiver, id, dest, base string, dir, contents bool) (into, name string, err error) {
	kind, err := statIn(ctx, arch, id, dest)
	switch {
	case err != nil:
		return "", "", err
	case kind == isDir && dir && contents:
		return dest, "", nil
	case kind == isDir:
		return dest, base, nil
	case kind == isFile && dir:
		return "", "", fmt.Errorf("%s is a file in the container: a folder cannot be copied onto it (give a folder, or a name that does not exist yet)", dest)
	case kind == isFile:
		return path.Dir(dest), path.Base(dest), nil
	case !dir && strings.HasSuffix(dest, "/"):
		return "", "", fmt.Errorf("the folder %s does not exist in the container: a file is copied into an existing folder, or to a new name without a trailing /", dest)
	}
	parent := path.Dir(path.Clean(dest))
	if k, err := statIn(ctx, arch, id, parent); err != nil || k != isDir {
		return "", "", fmt.Errorf("%s does not exist in the container, nor does its folder %s: docker cp makes no folders above the copy; create %s first", dest, parent, parent)
	}
	return parent, path.Base(path.Clean(dest)), nil
}

// statIn says whether p exists in the container and is a folder, from the
// first entry of its archive (the rest is not read).
func statIn(ctx context.Context, arch engine.Archiver, id, p string) (pathKind, error) {
	rc, err := arch.CopyFrom(ctx, id, p)
	if errors.Is(err, engine.ErrNotFound) {
		return missing, nil
	}
	if err != nil {
		return missing, err
	}
	defer func() { _ = rc.Close() }()
	hdr, err := tar.NewReader(rc).Next()
	if err != nil {
		return missing, fmt.Errorf("reading %s in the container: %w", p, err)
	}
	if hdr.Typeflag == tar.TypeDir {
		return isDir, nil
	}
	return isFile, nil
}

// writeTree writes src as a tar stream whose root is name ("": src's
// entries at the root), owned by uid:gid, counting into c what it wrote.
func writeTree(w io.Writer, src, name string, uid, gid int, c *Copied) error {
	tw := tar.NewWriter(w)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		entry := path.Join(name, filepath.ToSlash(rel))
		if entry == "." {
			return nil // the contents of src/. : its entries only
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: entry + "/", Mode: int64(fi.Mode().Perm()), Uid: uid, Gid: gid, ModTime: fi.ModTime()})
		case fi.Mode().IsRegular():
			return addTreeFile(tw, p, entry, uid, gid, c)
		}
		c.Skipped = append(c.Skipped, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return err
	}
	return tw.Close()
}

// addTreeFile writes one file as it is now, never through a link.
func addTreeFile(tw *tar.Writer, p, entry string, uid, gid int, c *Copied) error {
	f, err := os.OpenFile(p, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: entry, Mode: int64(fi.Mode().Perm()), Size: fi.Size(), Uid: uid, Gid: gid, ModTime: fi.ModTime()}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if _, err := io.CopyN(tw, f, fi.Size()); err != nil {
		return err
	}
	c.Files++
	c.Bytes += fi.Size()
	return nil
}
