package images

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"text/template"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// An artifact image holds one artifact (a Spark distribution unpacked, a jar
// as it is) on top of the base it was checked in. devenv builds it once per
// artifact sha256 on an engine, with a context of that file alone, and
// service images COPY --from it: a build of a service sends no artifact, and
// an engine (local or remote) receives each artifact once.
//
// Its tag depends on the artifact's sha256, its file name, how it is placed
// (unpacked or not) and artifactVersion, not on the base or the project, so
// every service and project on the engine shares it. It carries
// labels.Artifact (the sha256) and no project label: `down` never removes
// it; `docker image rm` does, and the next build makes it again.

// artifactVersion changes whenever the artifact recipe does.
const artifactVersion = "devenv-artifact/v2" // v2: fixed times, the same bytes whoever builds it

// Paths inside an artifact image.
const (
	artifactRoot   = "/devenv/artifact"
	artifactStaged = "/devenv/staged/"
)

// artifactTemplate is the embedded Dockerfile of an artifact image.
const artifactTemplate = "templates/artifact.tmpl"

// artifactImage is one artifact's image, as service Dockerfiles refer to it.
type artifactImage struct {
	File   File
	Unpack bool   // a tarball unpacked into artifactRoot (Spark), else the file itself
	Tag    string // devenv/artifact:<key>
}

// newArtifactImage names f's artifact image.
func newArtifactImage(f File, unpack bool) artifactImage {
	h := newHasher()
	h.field("version", artifactVersion)
	h.field("name", f.Name)
	h.field("sha256", f.SHA256)
	h.field("unpack", fmt.Sprint(unpack))
	return artifactImage{File: f, Unpack: unpack, Tag: "devenv/artifact:" + h.sum()[:24]}
}

// From is the path a service Dockerfile copies from the artifact image.
func (a artifactImage) From() string {
	if a.Unpack {
		return artifactRoot + "/"
	}
	return artifactRoot + "/" + a.File.Name
}

// artifactData is what artifact.tmpl sees.
type artifactData struct {
	Base, Name, SHA256 string
	Unpack             bool
	Staged, Dir        string
}

func (a artifactImage) dockerfile(base string) ([]byte, error) {
	d := artifactData{Base: base, Name: a.File.Name, SHA256: a.File.SHA256, Unpack: a.Unpack,
		Staged: artifactRoot + "/" + a.File.Name, Dir: artifactRoot}
	if a.Unpack {
		d.Staged = artifactStaged + a.File.Name
	}
	t, err := template.New("").Funcs(funcs).Option("missingkey=error").ParseFS(templateFS, artifactTemplate)
	if err != nil {
		return nil, fmt.Errorf("loading the artifact Dockerfile template: %w", err)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "artifact.tmpl", d); err != nil {
		return nil, fmt.Errorf("rendering the Dockerfile of artifact %s: %w", a.File.Name, err)
	}
	return buf.Bytes(), nil
}

// entries is the artifact image's build context: its Dockerfile and the file.
func (a artifactImage) entries(base string, size int64) ([]entry, error) {
	df, err := a.dockerfile(base)
	if err != nil {
		return nil, err
	}
	return []entry{
		{name: dockerfileName, typ: tar.TypeReg, mode: 0o644, data: df},
		{name: a.File.Name, typ: tar.TypeReg, mode: 0o644, path: a.File.Path, size: size, sha256: a.File.SHA256},
	}, nil
}

// ArtifactResult says what Build did for one artifact.
type ArtifactResult struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Image  string `json:"image"`
	Built  bool   `json:"built"`           // its image was built (the file was sent to the engine) by this call
	Bytes  int64  `json:"bytes,omitempty"` // bytes of build context sent, when built
}

// ensureArtifacts builds each artifact image the engine lacks (all of them
// with NoCache) and reports what it did.
func ensureArtifacts(ctx context.Context, eng engine.Engine, in Input, arts []artifactImage, opts Options, progress func(engine.Progress)) ([]ArtifactResult, error) {
	out := make([]ArtifactResult, 0, len(arts))
	for _, a := range arts {
		res := ArtifactResult{Name: a.File.Name, SHA256: a.File.SHA256, Image: a.Tag}
		if !opts.NoCache {
			ok, err := eng.ImageExists(ctx, a.Tag)
			if err != nil {
				return out, fmt.Errorf("checking for artifact image %s: %w", a.Tag, err)
			}
			if ok {
				out = append(out, res)
				continue
			}
		}
		n, err := buildArtifact(ctx, eng, in, a, opts, progress)
		if err != nil {
			return out, err
		}
		res.Built, res.Bytes = true, n
		out = append(out, res)
	}
	return out, nil
}

func buildArtifact(ctx context.Context, eng engine.Engine, in Input, a artifactImage, opts Options, progress func(engine.Progress)) (int64, error) {
	size, err := fileSize(a.File.Path)
	if err != nil {
		return 0, fmt.Errorf("artifact %s: %w; run `devenv lock` to download it again", a.File.Name, err)
	}
	entries, err := a.entries(in.Base, size)
	if err != nil {
		return 0, err
	}
	entries[0].data = withLabels(entries[0].data, map[string]string{labels.Artifact: a.File.SHA256, labels.ArtifactFile: a.File.Name})
	req := engine.BuildRequest{Dockerfile: dockerfileName, Tags: []string{a.Tag}, NoCache: opts.NoCache}
	sent, err := buildStreaming(ctx, eng, req, entries, masked(progress, nil))
	if err != nil {
		return sent, fmt.Errorf("artifact %s (image %s): %w", a.File.Name, a.Tag, err)
	}
	return sent, nil
}
