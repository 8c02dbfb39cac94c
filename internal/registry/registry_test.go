package registry

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// TestDigestAgainstRealRegistry pushes a random image to an in-process
// registry and checks Digest returns what the registry serves.
func TestDigestAgainstRealRegistry(t *testing.T) {
	srv := httptest.NewServer(registry.New())
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	img, err := random.Image(256, 1)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := name.ParseReference(host + "/nvidia/cuda:12.9.1-runtime-ubuntu22.04")
	if err := remote.Write(ref, img); err != nil {
		t.Fatal(err)
	}
	want, _ := img.Digest()
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
