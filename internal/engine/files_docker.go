package engine

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
)

// copyOptions are the options files are copied into a container with.
// CopyUIDGID stays off: the archive already names the owner, resolved from
// the container's own /etc/passwd. With it on, engines before moby's fix
// of moby/moby#34142 (Docker 20.10 among them) look the container's user up
// in the host's passwd database: a named user the host lacks ("devenv")
// fails the copy, and a uid the host has gets the host's group.
var copyOptions = container.CopyToContainerOptions{CopyUIDGID: false, AllowOverwriteDirWithFile: false}

// placeFiles copies files into the created container id (called name in
// messages), owned by the user it runs as (its own or its image's),
// through PUT /containers/{id}/archive extracted at the root.
func (d *docker) placeFiles(ctx context.Context, id, name string, files []File) error {
	op := fmt.Sprintf("copy files into container %q", name)
	in, err := d.cli.ContainerInspect(ctx, id)
	if err != nil {
		return d.wrap(op, err)
	}
	userSpec := ""
	if in.Config != nil {
		userSpec = in.Config.User
	}
	o, err := d.containerOwner(ctx, id, userSpec)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	archive, err := filesArchive(files, o, time.Now().Truncate(time.Second))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return d.wrap(op, d.cli.CopyToContainer(ctx, id, "/", bytes.NewReader(archive), copyOptions))
}

// containerOwner resolves userSpec in the container's /etc/passwd (and
// /etc/group when a group is named).
func (d *docker) containerOwner(ctx context.Context, id, userSpec string) (owner, error) {
	if userSpec == "" {
		return owner{}, nil
	}
	passwd, err := d.readContainerFile(ctx, id, "/etc/passwd")
	if err != nil {
		return owner{}, err
	}
	var group io.Reader
	if needsGroupFile(userSpec) {
		g, err := d.readContainerFile(ctx, id, "/etc/group")
		if err != nil {
			return owner{}, err
		}
		group = g
	}
	return resolveOwner(userSpec, passwd, group)
}

// maxUserFile bounds what devenv reads of a container's passwd or group file.
const maxUserFile = 4 << 20

// readContainerFile reads a small file of a (created) container through GET
// /containers/{id}/archive, following symbolic links a few times. A missing
// file is a nil reader, as for an image without /etc/passwd.
func (d *docker) readContainerFile(ctx context.Context, id, name string) (io.Reader, error) {
	for range 8 {
		rc, _, err := d.cli.CopyFromContainer(ctx, id, name)
		if cerrdefs.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, d.wrap("read "+name, err)
		}
		data, link, err := firstEntry(rc)
		_ = rc.Close()
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		if link == "" {
			return bytes.NewReader(data), nil
		}
		if !path.IsAbs(link) {
			link = path.Join(path.Dir(name), link)
		}
		name = link
	}
	return nil, fmt.Errorf("read %s: too many symbolic links", name)
}

// firstEntry is the content of the archive's first entry, or the target of
// the symbolic link it is.
func firstEntry(r io.Reader) ([]byte, string, error) {
	tr := tar.NewReader(r)
	hdr, err := tr.Next()
	if err != nil {
		return nil, "", err
	}
	switch hdr.Typeflag {
	case tar.TypeSymlink:
		return nil, hdr.Linkname, nil
	case tar.TypeReg:
		if hdr.Size > maxUserFile {
			return nil, "", fmt.Errorf("%d bytes: more than %d", hdr.Size, maxUserFile)
		}
		data, err := io.ReadAll(tr)
		return data, "", err
	}
	return nil, "", errors.New("not a regular file")
}
