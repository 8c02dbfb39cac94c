package lock

import (
	"context"
	"fmt"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/hashicorp/go-multierror"
)

// ComposeProfile marks a locked compose service.
const ComposeProfile = "compose"

// LocalImages looks up images on this machine's engine.
type LocalImages interface {
	// ImageID is the id of the local image ref; "" when there is none.
	ImageID(ctx context.Context, ref string) (string, error)
}

// lockCompose pins the image of every compose service that runs an image,
// and for a service that builds its own the images its Dockerfile builds
// FROM (buildbases.go): the project's data services are as reproducible
// as devenv's own. Services of every compose profile are pinned, so
// enabling a profile needs no new lock. An image no registry has
// (pull_policy: never or build, or a registry that does not know it while
// the engine has it) is pinned by its local image ID, with a note.
func lockCompose(ctx context.Context, p *spec.Project, prev *File, pin Pinner, m sources.Mirrors, opts Options, notes *[]string) ([]Service, error) {
	if len(p.Compose) == 0 {
		return nil, nil
	}
	svcs, err := opts.Compose.For(p.Compose, p.Dir, p.Name).Services(ctx, []string{"*"})
	if err != nil {
		return nil, err
	}
	var out []Service
	var errs *multierror.Error
	for _, cs := range svcs {
		if cs.Build != nil {
			ls, err := lockComposeBuild(ctx, p, cs, previous(prev, cs.Name, opts), pin, m, opts.Local, notes)
			if err != nil {
				errs = multierror.Append(errs, err)
				continue
			}
			out = append(out, ls)
			continue
		}
		if cs.Image == "" {
			continue
		}
		img, note, err := pinComposeImage(ctx, cs, previous(prev, cs.Name, opts), pin, m, opts.Local)
		if err != nil {
			errs = multierror.Append(errs, fmt.Errorf("compose service %q: %w", cs.Name, err))
			continue
		}
		if note != "" {
			*notes = append(*notes, note)
		}
		in := Inputs{Image: cs.Image}
		out = append(out, Service{Name: cs.Name, Profile: ComposeProfile, InputHash: in.hash(), Inputs: &in, Base: img})
	}
	return out, errs.ErrorOrNil()
}

// lockComposeBuild reads a compose build: service's Dockerfile and pins
// the images it builds FROM.
func lockComposeBuild(ctx context.Context, p *spec.Project, cs compose.Service, old *Service, pin Pinner, m sources.Mirrors, local LocalImages, notes *[]string) (Service, error) {
	src, err := readBuild(p, cs)
	if err != nil {
		return Service{}, err
	}
	return lockBuild(ctx, src, old, pin, m, local, notes)
}

func localOnly(policy string) bool { return policy == "never" || policy == "build" }

func pinComposeImage(ctx context.Context, cs compose.Service, old *Service, pin Pinner, m sources.Mirrors, local LocalImages) (*Image, string, error) {
	if localOnly(cs.PullPolicy) {
		return pinLocal(ctx, cs, local, fmt.Sprintf("pull_policy: %s", cs.PullPolicy), nil)
	}
	if old != nil && old.Base != nil && old.Base.Local {
		old = nil // an image ID is no registry digest: pin again
	}
	img, err := pinImage(ctx, cs.Image, old, pin, m)
	if err == nil {
		return img, "", nil
	}
	if local == nil {
		return nil, "", err
	}
	if id, lerr := local.ImageID(ctx, cs.Image); lerr != nil || id == "" {
		return nil, "", fmt.Errorf("%w; nor does this machine's engine have it: pull or build %s, or set pull_policy: never for an image you build yourself", err, cs.Image)
	}
	return pinLocal(ctx, cs, local, "no registry devenv can reach has it", err)
}

// pinLocal pins a compose service's image by its image ID on this engine.
func pinLocal(ctx context.Context, cs compose.Service, local LocalImages, why string, regErr error) (*Image, string, error) {
	if local == nil {
		return nil, "", fmt.Errorf("image %s is local (%s) and the Docker engine cannot be reached to read its image ID: start Docker and run devenv lock again", cs.Image, why)
	}
	id, err := local.ImageID(ctx, cs.Image)
	if err != nil {
		return nil, "", fmt.Errorf("image %s: %w", cs.Image, err)
	}
	if id == "" {
		return nil, "", fmt.Errorf("image %s is local (%s) but this machine's engine does not have it: build or load it (docker build -t %s ...), then run devenv lock again", cs.Image, why, cs.Image)
	}
	note := fmt.Sprintf("compose service %s: image %s is pinned by its local image ID %s (%s); the pin holds on this machine only: rebuild it elsewhere and run devenv lock there", cs.Name, cs.Image, id, why)
	if regErr != nil {
		note += fmt.Sprintf(" (registry: %v)", regErr)
	}
	return &Image{Ref: cs.Image, Digest: id, Local: true}, note, nil
}
