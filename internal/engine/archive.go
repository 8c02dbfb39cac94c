package engine

import (
	"context"
	"fmt"
	"io"
)

// Archiver copies files into and out of containers, as `docker cp` does
// (the archive endpoints). The Docker adapter implements it; devenv's sync
// to a remote engine and `devenv cp` use it.
type Archiver interface {
	// CopyTo extracts the tar stream at dir in container id (volumes
	// mounted there included).
	CopyTo(ctx context.Context, id, dir string, tar io.Reader) error
	// CopyFrom is a tar stream of path in container id.
	CopyFrom(ctx context.Context, id, path string) (io.ReadCloser, error)
	// Owner is the uid and gid container id runs as, resolved in its own
	// /etc/passwd and /etc/group.
	Owner(ctx context.Context, id string) (uid, gid int, err error)
}

var _ Archiver = (*docker)(nil)

// CopyTo extracts tar at dir in container id.
func (d *docker) CopyTo(ctx context.Context, id, dir string, tar io.Reader) error {
	return d.wrap(fmt.Sprintf("copy files into container %q at %s", id, dir), d.cli.CopyToContainer(ctx, id, dir, tar, copyOptions))
}

// CopyFrom is GET /containers/{id}/archive of path.
func (d *docker) CopyFrom(ctx context.Context, id, path string) (io.ReadCloser, error) {
	rc, _, err := d.cli.CopyFromContainer(ctx, id, path)
	if err != nil {
		return nil, d.wrap(fmt.Sprintf("copy %s out of container %q", path, id), err)
	}
	return rc, nil
}

// Owner resolves the container's user.
func (d *docker) Owner(ctx context.Context, id string) (int, int, error) {
	in, err := d.cli.ContainerInspect(ctx, id)
	if err != nil {
		return 0, 0, d.wrap("inspect container "+id, err)
	}
	spec := ""
	if in.Config != nil {
		spec = in.Config.User
	}
	o, err := d.containerOwner(ctx, id, spec)
	return o.uid, o.gid, err
}

// ArchiverOf is e's Archiver, or an error naming what cannot copy files.
func ArchiverOf(e Engine) (Archiver, error) {
	if a, ok := e.(Archiver); ok {
		return a, nil
	}
	return nil, fmt.Errorf("this engine (%T) cannot copy files", e)
}
