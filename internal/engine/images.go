package engine

import (
	"context"
	"fmt"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/registry"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
)

// ImageExists reports whether ref names a local image.
func (d *docker) ImageExists(ctx context.Context, ref string) (bool, error) {
	_, err := d.cli.ImageInspect(ctx, ref)
	switch {
	case err == nil:
		return true, nil
	case cerrdefs.IsNotFound(err):
		return false, nil
	default:
		return false, d.wrap(fmt.Sprintf("look up image %q", ref), err)
	}
}

// TagImage names the local image source target too (docker tag).
func (d *docker) TagImage(ctx context.Context, source, target string) error {
	if err := d.cli.ImageTag(ctx, source, target); err != nil {
		return d.wrap(fmt.Sprintf("tag image %q as %q", source, target), err)
	}
	return nil
}

// ImageID is the id of the local image ref; "" when there is none.
func (d *docker) ImageID(ctx context.Context, ref string) (string, error) {
	img, err := d.cli.ImageInspect(ctx, ref)
	switch {
	case err == nil:
		return img.ID, nil
	case cerrdefs.IsNotFound(err):
		return "", nil
	default:
		return "", d.wrap(fmt.Sprintf("look up image %q", ref), err)
	}
}

// Pull pulls ref with the user's credentials for its registry.
func (d *docker) Pull(ctx context.Context, ref string, progress func(Progress)) error {
	op := fmt.Sprintf("pull image %q", ref)
	auth, err := registryAuth(ctx, ref)
	if err != nil {
		return &Error{Op: op, Err: err, Hint: "Check ~/.docker/config.json and its credential helpers (`docker login` again)."}
	}
	timeout := AnswerTimeout()
	sctx, dog := d.watch(ctx, timeout)
	return dog.stop(d, op, timeout, d.pull(sctx, op, ref, auth, progress))
}

func (d *docker) pull(ctx context.Context, op, ref, auth string, progress func(Progress)) error {
	rc, err := d.cli.ImagePull(ctx, ref, image.PullOptions{RegistryAuth: auth})
	if err != nil {
		return d.wrap(op, err)
	}
	defer func() { _ = rc.Close() }()
	if _, err := decodeProgress(rc, progress); err != nil {
		return d.wrap(op, err)
	}
	return nil
}

// registryAuth returns the encoded credentials the user's Docker config
// (~/.docker/config.json, DOCKER_CONFIG, credential helpers) holds for the
// registry of ref, or "" when it holds none.
func registryAuth(ctx context.Context, ref string) (string, error) {
	r, err := name.ParseReference(ref)
	if err != nil {
		return "", fmt.Errorf("image reference %q is not valid: %w", ref, err)
	}
	reg := r.Context().Registry
	a, err := authn.DefaultKeychain.ResolveContext(ctx, reg)
	if err != nil {
		return "", fmt.Errorf("reading Docker credentials for %s: %w", reg.RegistryStr(), err)
	}
	if a == authn.Anonymous {
		return "", nil
	}
	cfg, err := authn.Authorization(ctx, a)
	if err != nil {
		return "", fmt.Errorf("reading Docker credentials for %s: %w", reg.RegistryStr(), err)
	}
	server := reg.RegistryStr()
	if server == name.DefaultRegistry {
		server = "https://index.docker.io/v1/"
	}
	return registry.EncodeAuthConfig(registry.AuthConfig{
		Username:      cfg.Username,
		Password:      cfg.Password,
		Auth:          cfg.Auth,
		IdentityToken: cfg.IdentityToken,
		RegistryToken: cfg.RegistryToken,
		ServerAddress: server,
	})
}

// Build builds req with the engine's classic builder, which every API
// version since 1.41 accepts without a BuildKit session.
func (d *docker) Build(ctx context.Context, req BuildRequest, progress func(Progress)) (string, error) {
	op := fmt.Sprintf("build image %v", req.Tags)
	timeout := AnswerTimeout()
	sctx, dog := d.watch(ctx, timeout)
	id, err := d.build(sctx, op, req, progress)
	if err = dog.stop(d, op, timeout, err); err != nil {
		return "", err
	}
	return id, nil
}

func (d *docker) build(ctx context.Context, op string, req BuildRequest, progress func(Progress)) (string, error) {
	dockerfile := req.Dockerfile
	if dockerfile == "" {
		dockerfile = "Dockerfile"
	}
	resp, err := d.cli.ImageBuild(ctx, req.Context, build.ImageBuildOptions{
		Tags:        req.Tags,
		Labels:      req.Labels,
		BuildArgs:   req.BuildArgs,
		Dockerfile:  dockerfile,
		NoCache:     req.NoCache,
		PullParent:  req.Pull,
		Target:      req.Target,
		NetworkMode: req.NetworkMode,
		Remove:      true,
		ForceRemove: true,
		Version:     build.BuilderV1,
	})
	if err != nil {
		return "", d.wrap(op, err)
	}
	defer func() { _ = resp.Body.Close() }()
	id, err := decodeProgress(resp.Body, progress)
	if err != nil {
		return "", d.wrap(op, err)
	}
	if id == "" && len(req.Tags) > 0 {
		return d.imageID(ctx, op, req.Tags[0])
	}
	if id == "" {
		return "", &Error{Op: op, Err: fmt.Errorf("the engine did not report the id of the image it built"), Hint: "Give the build a tag."}
	}
	return id, nil
}

// imageID looks up the id of a local image.
func (d *docker) imageID(ctx context.Context, op, ref string) (string, error) {
	in, err := d.cli.ImageInspect(ctx, ref)
	if err != nil {
		return "", d.wrap(op, err)
	}
	return in.ID, nil
}

// RemoveImage removes ref (its tag, and the image when no tag is left).
func (d *docker) RemoveImage(ctx context.Context, ref string) error {
	_, err := d.cli.ImageRemove(ctx, ref, image.RemoveOptions{PruneChildren: true})
	return d.wrap(fmt.Sprintf("remove image %q", ref), err)
}
