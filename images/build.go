package images

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// Options tune Build.
type Options struct {
	NoCache bool              // build even when the image exists, without the build cache
	Pull    bool              // have the engine pull newer base images
	Labels  map[string]string // extra image labels; devenv's own labels win
}

// Result says which image a service runs.
type Result struct {
	Tag   string // image reference to run
	Built bool   // an image was built by this call
}

// Tag names a service's image: devenv/<project>-<service>:<hash[:12]>.
func Tag(project, service, hash string) string {
	if len(hash) > 12 {
		hash = hash[:12]
	}
	return strings.ToLower(fmt.Sprintf("devenv/%s-%s:%s", project, service, hash))
}

// Build makes the service's image and returns its tag. It builds only when no
// image has that tag yet (or with opts.NoCache); a plain image (profile image
// without build:) needs no build and its reference is returned as it is.
// Engine progress messages go to progress, which may be nil.
func Build(ctx context.Context, eng engine.Engine, in Input, opts Options, progress func(engine.Progress)) (Result, error) {
	if !in.needsBuild() {
		if in.Base == "" {
			return Result{}, fmt.Errorf("service %q has no image reference; set image: in devenv.yaml and run `devenv lock`", in.Service)
		}
		return Result{Tag: in.Base}, nil
	}
	hash, err := Hash(in)
	if err != nil {
		return Result{}, err
	}
	tag := Tag(in.Project, in.Service, hash)
	if !opts.NoCache {
		exists, err := eng.ImageExists(ctx, tag)
		if err != nil {
			return Result{}, fmt.Errorf("checking for image %s: %w", tag, err)
		}
		if exists {
			return Result{Tag: tag}, nil
		}
	}
	entries, err := contextEntries(in)
	if err != nil {
		return Result{}, err
	}
	req := engine.BuildRequest{Dockerfile: contextDockerfile(in), Tags: []string{tag},
		Labels: imageLabels(in, hash, opts.Labels), BuildArgs: buildArgs(in), NoCache: opts.NoCache, Pull: opts.Pull,
		NetworkMode: buildNetwork(in)}
	if err := buildStreaming(ctx, eng, req, entries, progress); err != nil {
		return Result{}, fmt.Errorf("building image %s for service %q: %w", tag, in.Service, err)
	}
	return Result{Tag: tag, Built: true}, nil
}

// errBuildReturned tells the context writer that the engine stopped reading.
var errBuildReturned = errors.New("the engine stopped reading the build context")

// buildStreaming streams the context to the engine as it builds.
func buildStreaming(ctx context.Context, eng engine.Engine, req engine.BuildRequest, entries []entry, progress func(engine.Progress)) error {
	pr, pw := io.Pipe()
	written := make(chan error, 1)
	go func() {
		err := writeTar(pw, entries)
		pw.CloseWithError(err)
		written <- err
	}()
	req.Context = pr
	if progress == nil {
		progress = func(engine.Progress) {}
	}
	_, err := eng.Build(ctx, req, progress)
	pr.CloseWithError(errBuildReturned)
	werr := <-written
	// A closed pipe means the engine's side stopped reading (the engine
	// went away mid-build): its error says why, the writer's does not.
	if werr != nil && !errors.Is(werr, errBuildReturned) && (err == nil || !errors.Is(werr, io.ErrClosedPipe)) {
		return werr
	}
	return err
}

func contextDockerfile(in Input) string {
	if in.UserDockerfile != "" {
		return baseName(in.UserDockerfile)
	}
	return dockerfileName
}

func imageLabels(in Input, hash string, extra map[string]string) map[string]string {
	lbl := make(map[string]string, len(extra)+3)
	for k, v := range extra {
		lbl[k] = v
	}
	lbl[labels.Project] = in.Project
	lbl[labels.Service] = in.Service
	lbl[labels.ConfigHash] = hash
	return lbl
}

// buildArgs passes a PyPI mirror URL that carries credentials as a build
// argument, so that it is not written into the Dockerfile or the image's ENV.
func buildArgs(in Input) map[string]*string {
	if in.UserDockerfile != "" || in.PipIndexURL == "" {
		return nil
	}
	if u, err := url.Parse(in.PipIndexURL); err != nil || u.User == nil {
		return nil
	}
	v := in.PipIndexURL
	return map[string]*string{"PIP_INDEX_URL": &v}
}

// buildNetwork is "host" when the PyPI mirror is on this machine's loopback
// (a local devpi, a test stand-in): on the default bridge network the
// build's RUN steps would look for it inside the build container.
func buildNetwork(in Input) string {
	u, err := url.Parse(in.PipIndexURL)
	if err != nil || u.Host == "" {
		return ""
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1" {
		return "host"
	}
	return ""
}
