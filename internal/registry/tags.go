package registry

import (
	"context"
	"fmt"

	"github.com/devenv-dev/devenv/internal/redact"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Tags lists the tags a registry serves for a repository ("nvcr.io/nvidia/
// tritonserver", or its mirror), with the same credentials as Digest.
func (p Pinner) Tags(ctx context.Context, repo string) ([]string, error) {
	r, err := name.NewRepository(repo, name.WeakValidation)
	if err != nil {
		return nil, fmt.Errorf("%q is not a repository: %w", repo, err)
	}
	tags, err := remote.List(r, p.options(ctx)...)
	if err != nil {
		return nil, fmt.Errorf("registry %s: %w", r.RegistryStr(), redact.Error(err))
	}
	return tags, nil
}
