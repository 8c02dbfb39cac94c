package standin

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
)

// manifestPath is /v2/<repo>/manifests/<tag or digest>.
var manifestPath = regexp.MustCompile(`^(/v2/.+/manifests/)([^/]+)$`)

// Liar wraps a registry so that it lies about every manifest: it claims a
// digest (Docker-Content-Digest) the manifest's bytes do not hash to, and
// answers a request by that false digest with the real manifest, as a
// corrupt or tampered mirror would. Blobs and uploads pass unchanged.
func Liar(h http.Handler) http.Handler {
	var mu sync.Mutex
	truth := map[string]string{} // false digest -> real one
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := manifestPath.FindStringSubmatch(r.URL.Path)
		if m == nil || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			h.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		if real, ok := truth[m[2]]; ok {
			r.URL.Path = m[1] + real
		}
		mu.Unlock()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		if real := rec.Header().Get("Docker-Content-Digest"); rec.Code == http.StatusOK && real != "" {
			sum := sha256.Sum256([]byte("a lie about " + real))
			lie := "sha256:" + hex.EncodeToString(sum[:])
			mu.Lock()
			truth[lie] = real
			mu.Unlock()
			w.Header().Set("Docker-Content-Digest", lie)
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// LyingRegistry is Registry behind Liar: images pushed through it (Push)
// are stored truly, and every manifest it answers claims a false digest.
func LyingRegistry(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("standin: lying registry cannot listen on 127.0.0.1: %v", err)
	}
	srv := &http.Server{Handler: Liar(registry.New(registry.Logger(log.New(io.Discard, "", 0))))}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return strings.TrimPrefix(l.Addr().String(), "http://")
}
