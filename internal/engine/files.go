package engine

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/hashicorp/go-multierror"
	"github.com/moby/sys/user"
)

// File is a file Create puts into a container before it first starts.
// Generated configuration travels this way rather than through a bind mount
// of the host's copy: the container gets its own copy owned by its user, so
// the host copy can stay readable by its owner alone, whatever the uids.
type File struct {
	Path string      // absolute path in the container; missing parent directories are made (root, 0755)
	Mode fs.FileMode // permission bits, e.g. 0600: only the container's user (and root) reads it
	Data []byte
}

// checkFiles reports what Create could not place: relative or unclean
// paths, a path given twice, mode bits beyond the permissions.
func checkFiles(files []File) error {
	var errs *multierror.Error
	seen := map[string]bool{}
	for _, f := range files {
		switch {
		case !path.IsAbs(f.Path) || path.Clean(f.Path) != f.Path || f.Path == "/":
			errs = multierror.Append(errs, fmt.Errorf("file %q: the path must be absolute and clean, and name a file", f.Path))
		case f.Mode&^fs.ModePerm != 0:
			errs = multierror.Append(errs, fmt.Errorf("file %q: mode %v has more than permission bits", f.Path, f.Mode))
		case seen[f.Path]:
			errs = multierror.Append(errs, fmt.Errorf("file %q is given twice", f.Path))
		}
		seen[f.Path] = true
	}
	return errs.ErrorOrNil()
}

// owner is the numeric user and group a container's files are given.
type owner struct{ uid, gid int }

// filesArchive is the tar Create extracts at the container's root: one
// regular-file entry per file, with its mode and owner, and nothing else.
// It holds no directory entries, so the image's directories keep their own
// modes and owners; the engine makes missing parents (root, 0755).
func filesArchive(files []File, o owner, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     strings.TrimPrefix(f.Path, "/"),
			Mode:     int64(f.Mode.Perm()),
			Uid:      o.uid,
			Gid:      o.gid,
			Size:     int64(len(f.Data)),
			ModTime:  mtime,
			Format:   tar.FormatPAX,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, fmt.Errorf("file %s: %w", f.Path, err)
		}
		if _, err := tw.Write(f.Data); err != nil {
			return nil, fmt.Errorf("file %s: %w", f.Path, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// resolveOwner finds the uid and gid of a container's user ("", "name",
// "uid", "name:group", "uid:gid", ...) in the container's own /etc/passwd
// and /etc/group (nil when the image has none), the way the runtime does
// when it starts the process: a numeric uid needs no entry (its group is
// then 0), a name does.
func resolveOwner(userSpec string, passwd, group io.Reader) (owner, error) {
	if userSpec == "" {
		return owner{}, nil
	}
	u, err := user.GetExecUser(userSpec, &user.ExecUser{}, passwd, group)
	if err != nil {
		return owner{}, fmt.Errorf("the container's user %q: %w", userSpec, err)
	}
	return owner{uid: u.Uid, gid: u.Gid}, nil
}

// needsGroupFile says whether resolving userSpec reads /etc/group: only a
// group given by name does (the primary group comes from /etc/passwd).
func needsGroupFile(userSpec string) bool {
	_, g, ok := strings.Cut(userSpec, ":")
	if !ok || g == "" {
		return false
	}
	for _, r := range g {
		if r < '0' || r > '9' {
			return true
		}
	}
	return false
}
