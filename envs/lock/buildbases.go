package lock

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/dockerfile"
	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/internal/sources"
)

// A compose service with build: is locked by the images its Dockerfile
// builds FROM (build_bases), each pinned by digest through
// mirrors.registries as devenv's own bases are; inputs.from lists those
// images, so a changed FROM, build arg or target makes the lock stale.

// buildSource is a compose build: service's Dockerfile, read.
type buildSource struct {
	service string
	compose string // the compose file, relative to the project
	file    string // the Dockerfile, relative to the project (for dockerfile_inline: the compose file's)
	froms   []dockerfile.From
}

// readBuild reads the Dockerfile of compose service cs (build.context and
// build.dockerfile, or dockerfile_inline) as a bounded regular file, as the
// build sends it (readDockerfile), and the images it builds FROM with
// cs's build args and target. Every problem names the compose file, the
// service and the Dockerfile line (a *spec.Error: exit 2).
func readBuild(p *spec.Project, cs compose.Service) (buildSource, error) {
	b := cs.Build
	src := buildSource{service: cs.Name, compose: relTo(p.Dir, cs.File)}
	var data []byte
	switch {
	case b.Inline != "":
		src.file, data = src.compose+" (dockerfile_inline)", []byte(b.Inline)
	case !filepath.IsAbs(b.Context):
		return src, &spec.Error{File: src.compose, Msg: fmt.Sprintf("compose service %q: build.context %q is not a directory on this machine, and devenv builds from one", cs.Name, b.Context),
			Hint: "clone or copy the sources into the project and point build.context at that directory"}
	default:
		path := b.DockerfilePath()
		src.file = relTo(p.Dir, path)
		var err error
		if data, err = readDockerfile(b.Context, path); errors.Is(err, fs.ErrNotExist) {
			return src, &spec.Error{File: src.compose, Msg: fmt.Sprintf("compose service %q: its Dockerfile %s does not exist", cs.Name, src.file),
				Hint: "fix build.context or build.dockerfile in the compose file"}
		} else if err != nil {
			return src, &spec.Error{File: src.compose, Msg: fmt.Sprintf("compose service %q: its Dockerfile %s cannot be read: %v", cs.Name, src.file, err),
				Hint: "build.context and build.dockerfile must name a regular file, with no symbolic link on the way from the context to it: devenv pins the images it builds FROM"}
		}
	}
	froms, err := dockerfile.Froms(data, b.Args, b.Target)
	if err != nil {
		return src, src.errorAt(err)
	}
	src.froms = froms
	return src, nil
}

// readDockerfile reads a compose build's Dockerfile as the build sends it
// (images/): one inside its context with no link on the way from the
// context (a link would be sent as a link), one outside it (Compose allows
// it: "../docker/app.Dockerfile", or an absolute path) as the file it
// names. Either may lie outside the project, as Compose allows; the one
// link rule for paths written inside it is the compose guard's.
func readDockerfile(context, path string) ([]byte, error) {
	if rel, err := filepath.Rel(context, path); err == nil && filepath.IsLocal(rel) {
		return safefile.ReadNoLinks(context, path, safefile.MaxConfig)
	}
	return safefile.ReadFile(path, safefile.MaxConfig)
}

func relTo(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r)
	}
	return p
}

// errorAt places a Dockerfile problem at its line.
func (s buildSource) errorAt(err error) error {
	var de *dockerfile.Error
	if !errors.As(err, &de) {
		return fmt.Errorf("%s: compose service %q (%s): %w", s.file, s.service, s.compose, err)
	}
	e := &spec.Error{File: s.file, Msg: fmt.Sprintf("compose service %q (%s): its Dockerfile %s", s.service, s.compose, de.Msg), Hint: de.Hint}
	if de.Line > 0 {
		e.Pos = spec.Pos{Line: de.Line, Col: 1}
	}
	return e
}

// images are the distinct images the Dockerfile builds FROM, in order.
func (s buildSource) images() []string { return dockerfile.Images(s.froms) }

// line is the first line that builds FROM image.
func (s buildSource) line(image string) int {
	for _, f := range s.froms {
		if f.Image == image {
			return f.Line
		}
	}
	return 0
}

// BaseError says that no registry devenv can reach (through
// mirrors.registries) has an image a compose service's Dockerfile builds
// FROM, nor has this machine's engine.
type BaseError struct {
	File, Compose, Service, Image string
	Line                          int
	Err                           error
}

func (e *BaseError) Error() string {
	return fmt.Sprintf("%s:%d:1: compose service %q (%s) builds FROM %s, which devenv cannot pin: %v\n\thint: %s",
		e.File, e.Line, e.Service, e.Compose, e.Image, e.Err, baseHint(e.Image))
}

func (e *BaseError) Unwrap() error { return e.Err }

func baseHint(image string) string {
	host, _, ok := strings.Cut(image, "/")
	if !ok || !strings.ContainsAny(host, ".:") {
		host = "docker.io"
	}
	return fmt.Sprintf("check the name and tag in the Dockerfile (and build.args); for a registry this machine cannot reach, set mirrors.registries.%s in devenv.yaml to a mirror that serves it; for an image only this machine has, build or pull it, then run devenv lock again", host)
}

// lockBuild pins the images compose service cs builds FROM, keeping the
// digests old pinned for the same images.
func lockBuild(ctx context.Context, src buildSource, old *Service, pin Pinner, m sources.Mirrors, local LocalImages, notes *[]string) (Service, error) {
	imgs := src.images()
	in := Inputs{From: imgs}
	ls := Service{Name: src.service, Profile: ComposeProfile, InputHash: in.hash(), Inputs: &in}
	for _, ref := range imgs {
		img, note, err := pinBuildBase(ctx, ref, old, pin, m, local)
		if err != nil {
			return Service{}, &BaseError{File: src.file, Compose: src.compose, Service: src.service, Image: ref, Line: src.line(ref), Err: err}
		}
		if note != "" {
			*notes = append(*notes, fmt.Sprintf("compose service %s: %s builds FROM %s, %s", src.service, src.file, ref, note))
		}
		ls.BuildBases = append(ls.BuildBases, img)
	}
	return ls, nil
}

// pinBuildBase pins one image a Dockerfile builds FROM: the previous
// lock's registry digest for it, else the registry's (through the
// mirror), else the local engine's image ID, with a note.
func pinBuildBase(ctx context.Context, ref string, old *Service, pin Pinner, m sources.Mirrors, local LocalImages) (Image, string, error) {
	if prev := old.buildBase(ref); prev != nil && !prev.Local {
		return *prev, "", nil
	}
	d, err := pin.Digest(ctx, m.Image(ref))
	if err == nil {
		return Image{Ref: ref, Digest: d}, "", nil
	}
	if local == nil {
		return Image{}, "", err
	}
	id, lerr := local.ImageID(ctx, ref)
	if lerr != nil || id == "" {
		return Image{}, "", fmt.Errorf("%w; nor does this machine's engine have it", err)
	}
	return Image{Ref: ref, Digest: id, Local: true}, fmt.Sprintf("which is pinned by its local image ID %s (no registry devenv can reach has it); the pin holds on this machine only", id), nil
}

// buildBase is the pin of image among s's build bases, or nil.
func (s *Service) buildBase(image string) *Image {
	if s == nil {
		return nil
	}
	for i := range s.BuildBases {
		if s.BuildBases[i].Ref == image {
			return &s.BuildBases[i]
		}
	}
	return nil
}

// BuildPins map each image a compose service's Dockerfile builds FROM to
// the reference its build uses instead: the pinned digest through the
// registry mirror. Images pinned by a local image ID are left out (the
// engine has them under their own name).
func (s *Service) BuildPins(m sources.Mirrors) map[string]string {
	if s == nil || len(s.BuildBases) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, b := range s.BuildBases {
		if !b.Local {
			out[b.Ref] = m.Image(b.Pinned())
		}
	}
	return out
}

// LocalBuildBases are the images of s's build bases pinned by their local
// image ID.
func (s *Service) LocalBuildBases() []Image {
	if s == nil {
		return nil
	}
	var out []Image
	for _, b := range s.BuildBases {
		if b.Local {
			out = append(out, b)
		}
	}
	return out
}
