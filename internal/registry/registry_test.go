package registry

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/devenv-dev/devenv/internal/httpx"
	"github.com/devenv-dev/devenv/test/standin"
)

// TestDigestAgainstRealRegistry pushes a random image to an in-process
// registry and checks Digest returns what the registry serves.
func TestDigestAgainstRealRegistry(t *testing.T) {
	host, ref, want := pushRandom(t, registry.New())
	got, err := Pinner{}.Digest(t.Context(), ref.String())
	if err != nil {
		t.Fatal(err)
	}
	if got != want.String() {
		t.Fatalf("digest %s, want %s", got, want)
	}
	_, err = Pinner{}.Digest(t.Context(), host+"/nvidia/cuda:no-such-tag")
	if err == nil || !strings.Contains(err.Error(), "mirrors.registries") {
		t.Fatalf("missing tag: %v", err)
	}
	if _, err := (Pinner{}).Digest(t.Context(), "UPPER/Case::bad"); err == nil {
		t.Fatal("bad reference accepted")
	}
}

// pushRandom serves a registry with h for the test and pushes a random
// image to it as nvidia/cuda:12.9.1-runtime-ubuntu22.04: the registry's
// host, the image's reference and its digest.
func pushRandom(t *testing.T, h http.Handler) (string, name.Reference, v1.Hash) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	img, err := random.Image(256, 1)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := name.ParseReference(host + "/nvidia/cuda:12.9.1-runtime-ubuntu22.04")
	if err := remote.Write(ref, img); err != nil {
		t.Fatal(err)
	}
	digest, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return host, ref, digest
}

// TestDigestFromAStalledRegistryIsBounded: a registry that accepts and
// never answers fails Digest within the shared budget, naming the registry.
func TestDigestFromAStalledRegistryIsBounded(t *testing.T) {
	host := stalled(t)
	budget := httpx.NewBudget(500 * time.Millisecond)
	tr := httpx.Transport(httpx.Limits{Connect: time.Second, Header: 300 * time.Millisecond, Idle: 300 * time.Millisecond, Attempts: 3, Backoff: 20 * time.Millisecond, Budget: budget})
	start := time.Now()
	for _, tag := range []string{"a", "b", "c"} {
		_, err := Pinner{Transport: tr, Keychain: authn.NewMultiKeychain()}.Digest(t.Context(), host+"/nvidia/cuda:"+tag)
		if err == nil || !strings.Contains(err.Error(), host) {
			t.Fatalf("Digest from a stalled registry: %v, want an error naming %s", err, host)
		}
	}
	if d := time.Since(start); d > budget.Total()+400*time.Millisecond {
		t.Errorf("three digests from a stalled registry took %s, want about the budget %s", d, budget.Total())
	}
}

// TestDigestFromALyingRegistryIsRefused: a registry that claims a digest
// its manifest's bytes do not hash to is refused, naming the registry and
// both digests, so devenv.lock never pins a digest the pull cannot verify.
func TestDigestFromALyingRegistryIsRefused(t *testing.T) {
	host, ref, real := pushRandom(t, standin.Liar(registry.New(registry.Logger(log.New(io.Discard, "", 0)))))
	got, err := Pinner{}.Digest(t.Context(), ref.String())
	if err == nil {
		t.Fatalf("pinned %s from a lying registry (the bytes hash to %s)", got, real)
	}
	for _, want := range []string{host, real.String(), "does not hash"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}
