package images

import (
	"archive/tar"
	"slices"
)

// sealed is a build's context as its image's tag was computed from it:
// the content hash and the entries read for it (a user's context whole,
// each file with the digest of the bytes to send; a template build's
// files but its Dockerfile, which is rendered again with the mirrors).
type sealed struct {
	hash    string
	entries []entry
}

// Seal computes in's content hash (Hash) and keeps in in what it read for
// it, so that Build sends exactly that: the files listed then, each as
// long as it was then and checked to be the bytes its digest was of, and
// tags the image with that hash. Without it a plan's tag and the build's
// came from two reads of the context, and a context that changed in
// between (a log file appended, a file added) was built under a tag the
// plan did not run ("No such image"). A file that grows is sent as long
// as it was when sealed; one rewritten stops the build (ChangedError).
func Seal(in *Input) (string, error) {
	s, err := seal(*in)
	if err != nil {
		return "", err
	}
	in.sealed = s
	return s.hash, nil
}

// sealing is in's seal: Seal's, or one made now.
func (in Input) sealing() (*sealed, error) {
	if in.sealed != nil {
		return in.sealed, nil
	}
	return seal(in)
}

// context is the build context to send for in, sealed as s, Dockerfile
// first for a template build, and the artifact images its Dockerfile
// copies from.
func (s *sealed) context(in Input) ([]entry, []artifactImage, error) {
	if in.userBuild() {
		return slices.Clone(s.entries), nil, nil
	}
	r, dockerfile, err := recipeFor(in)
	if err != nil {
		return nil, nil, err
	}
	entries := append([]entry{{name: dockerfileName, typ: tar.TypeReg, mode: 0o644, data: dockerfile}}, s.entries...)
	return entries, r.artifacts, artifactFilesMissing(in).ErrorOrNil()
}
