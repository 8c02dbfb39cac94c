// Package registry asks container registries (or their mirrors) which
// manifest digest an image reference names, with the user's Docker
// credentials, so devenv.lock pins every base image by digest.
package registry

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/devenv-dev/devenv/internal/httpx"
	"github.com/devenv-dev/devenv/internal/redact"
)

// Pinner resolves digests over the registry HTTP API.
type Pinner struct {
	// Keychain finds credentials; nil means the Docker config (~/.docker/config.json
	// and its credential helpers) plus NGC_API_KEY for nvcr.io.
	Keychain authn.Keychain
	// Transport carries the requests; nil means httpx's, which gives up on
	// a registry that stops answering and names it.
	Transport http.RoundTripper
}

// options are the registry client's: the Pinner's keychain (NGC's key,
// then docker's config) and transport, and no retries of its own (httpx
// retries; retrying its retries multiplies the wait).
func (p Pinner) options(ctx context.Context) []remote.Option {
	kc := p.Keychain
	if kc == nil {
		kc = authn.NewMultiKeychain(ngcKeychain{}, authn.DefaultKeychain)
	}
	tr := p.Transport
	if tr == nil {
		tr = httpx.Transport(httpx.DefaultLimits())
	}
	return []remote.Option{remote.WithContext(ctx), remote.WithAuthFromKeychain(kc), remote.WithTransport(tr),
		remote.WithRetryBackoff(remote.Backoff{Steps: 1})}
}

// Digest returns the digest the registry serves for ref (a tag or a digest).
// For a multi-architecture image this is the index digest, so every platform
// pulls the same pinned image.
func (p Pinner) Digest(ctx context.Context, ref string) (string, error) {
	r, err := name.ParseReference(ref, name.WeakValidation)
	if err != nil {
		return "", fmt.Errorf("%q is not an image reference: %w", ref, err)
	}
	desc, err := remote.Head(r, p.options(ctx)...)
	if err != nil {
		return "", registryError(r, "", err)
	}
	if err := p.verify(ctx, r, desc.Digest.String()); err != nil {
		return "", err
	}
	return desc.Digest.String(), nil
}

// verify fetches the manifest by the digest the registry named, as the
// engine's pull will, and checks that its bytes hash to that digest: a
// corrupt or tampered registry (or mirror) would otherwise get a digest
// pinned in devenv.lock that no pull can verify.
func (p Pinner) verify(ctx context.Context, r name.Reference, digest string) error {
	byDigest := r.Context().Digest(digest)
	m, err := remote.Get(byDigest, p.options(ctx)...)
	if err != nil && strings.Contains(err.Error(), "does not match requested digest") {
		return fmt.Errorf("registry %s claims %s for %s, but the manifest it serves does not hash to it: %w; the registry or mirror is corrupt or was tampered with: devenv.lock pins nothing from it (check `mirrors.registries`)",
			r.Context().RegistryStr(), digest, r, redact.Error(err))
	}
	if err != nil {
		return registryError(r, fmt.Sprintf("fetching the manifest of %s by its digest %s", r, digest), err)
	}
	if m.Digest.String() != digest {
		return fmt.Errorf("registry %s claims %s for %s, but the manifest it serves hashes to %s (it does not hash to the digest claimed): the registry or mirror is corrupt or was tampered with: devenv.lock pins nothing from it (check `mirrors.registries`)",
			r.Context().RegistryStr(), digest, r, m.Digest)
	}
	return nil
}

// ngcKeychain uses NGC_API_KEY for nvcr.io, as NGC's own tools do.
type ngcKeychain struct{}

func (ngcKeychain) Resolve(res authn.Resource) (authn.Authenticator, error) {
	key := os.Getenv("NGC_API_KEY")
	if key == "" || !strings.EqualFold(res.RegistryStr(), "nvcr.io") {
		return authn.Anonymous, nil
	}
	return &authn.Basic{Username: "$oauthtoken", Password: key}, nil
}
