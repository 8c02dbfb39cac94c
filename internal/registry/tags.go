package registry

import (
	"context"
	"fmt"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/devenv-dev/devenv/internal/httpx"
)

// Tags lists the tags a registry serves for a repository ("nvcr.io/nvidia/
// tritonserver", or its mirror), with the same credentials as Digest.
func (p Pinner) Tags(ctx context.Context, repo string) ([]string, error) {
	r, err := name.NewRepository(repo, name.WeakValidation)
	if err != nil {
		return nil, fmt.Errorf("%q is not a repository: %w", repo, err)
	}
	kc := p.Keychain
	if kc == nil {
		kc = authn.NewMultiKeychain(ngcKeychain{}, authn.DefaultKeychain)
	}
	tr := p.Transport
	if tr == nil {
		tr = httpx.Transport(httpx.DefaultLimits())
	}
	tags, err := remote.List(r, remote.WithContext(ctx), remote.WithAuthFromKeychain(kc), remote.WithTransport(tr),
		remote.WithRetryBackoff(remote.Backoff{Steps: 1}))
	if err != nil {
		return nil, fmt.Errorf("registry %s: %w", r.RegistryStr(), err)
	}
	return tags, nil
}
