package images

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/devenv-dev/devenv/internal/dockerfile"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// userBuildRequest gives the build of a user's Dockerfile its build args
// and target, and makes the Dockerfile sent name the pinned references of
// its FROM images (Input.Pins).
func userBuildRequest(in Input, req *engine.BuildRequest, entries []entry) error {
	if len(in.BuildArgs) > 0 {
		req.BuildArgs = make(map[string]*string, len(in.BuildArgs))
		for k, v := range in.BuildArgs {
			req.BuildArgs[k] = &v
		}
	}
	req.Target = in.Target
	if len(in.Pins) == 0 {
		return nil
	}
	return pinFroms(in, entries)
}

// pinFroms replaces the Dockerfile's entry by the same file with its FROM
// images pinned. The file is read again with no link on the way (a link
// would be sent as a link, and the builder would read what it points to).
func pinFroms(in Input, entries []entry) error {
	name := in.userDockerfileName()
	for i, e := range entries {
		if e.name != name {
			continue
		}
		data := e.data
		if e.path != "" || e.typ != tar.TypeReg {
			var err error
			if data, err = safefile.ReadNoLinks(in.userContext(), in.UserDockerfile, safefile.MaxConfig); err != nil {
				return fmt.Errorf("service %q: %w", in.Service, err)
			}
			if sum := sha256.Sum256(data); e.check && (int64(len(data)) != e.size || hex.EncodeToString(sum[:]) != e.sha256) {
				return &ChangedError{Path: in.UserDockerfile}
			}
		}
		pinned, err := dockerfile.Pin(data, in.BuildArgs, in.Target, in.Pins)
		if err != nil {
			return fmt.Errorf("service %q: Dockerfile %s: %w", in.Service, name, err)
		}
		entries[i] = entry{name: e.name, typ: tar.TypeReg, mode: e.mode, data: pinned}
		return nil
	}
	return fmt.Errorf("service %q: its Dockerfile %s is not in the build context (a .dockerignore or devenv's own exclusions leave it out)", in.Service, name)
}
