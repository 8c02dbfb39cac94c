package fetch

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func TestParseChecksum(t *testing.T) {
	sum := sha512.Sum512([]byte("x"))
	h := hex.EncodeToString(sum[:])
	up := strings.ToUpper(h)
	var grouped []string
	for i := 0; i < len(up); i += 8 {
		grouped = append(grouped, up[i:i+8])
	}
	old := "spark-3.1.1-bin-hadoop3.2.tgz: " + strings.Join(grouped[:8], " ") + "\n                               " + strings.Join(grouped[8:], " ") + "\n"
	tests := []struct {
		name, in, algo, want string
		wantErr              bool
	}{
		{"modern", h + "  spark-3.5.1-bin-hadoop3.tgz\n", "sha512", h, false},
		{"bare", h, "sha512", h, false},
		{"old apache", old, "sha512", h, false},
		{"sha1 maven", "a9993e364706816aba3e25717850c26c9cd0d89d", "sha1", "a9993e364706816aba3e25717850c26c9cd0d89d", false},
		{"short", "abcd", "sha1", "", true},
		{"html", "<html>404</html>", "sha512", "", true},
		{"bad algo", h, "md4", "", true},
	}
	for _, tt := range tests {
		got, err := ParseChecksum([]byte(tt.in), tt.algo)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("%s: got %q, %v", tt.name, got, err)
		}
	}
}

func server(t *testing.T, files map[string]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestVerifiedAndGet(t *testing.T) {
	content := "jar bytes"
	s1 := sha1.Sum([]byte(content))
	s256 := sha256.Sum256([]byte(content))
	srv := server(t, map[string]string{
		"/a.jar":      content,
		"/a.jar.sha1": hex.EncodeToString(s1[:]),
		"/bad.jar":    content,
		"/bad.sha1":   strings.Repeat("0", 40),
	})
	c := &Cache{Dir: t.TempDir()}
	ctx := t.Context()
	sum, path, err := c.Verified(ctx, srv.URL+"/a.jar", srv.URL+"/a.jar.sha1", "sha1")
	if err != nil {
		t.Fatal(err)
	}
	if sum != hex.EncodeToString(s256[:]) {
		t.Fatalf("sha256 = %s", sum)
	}
	if b, _ := os.ReadFile(path); string(b) != content {
		t.Fatalf("cached content %q", b)
	}
	if got, err := c.Get(ctx, "http://unused.invalid/", sum); err != nil || got != path {
		t.Fatalf("Get from cache: %v %v", got, err)
	}
	_, _, err = c.Verified(ctx, srv.URL+"/bad.jar", srv.URL+"/bad.sha1", "sha1")
	var ce *ChecksumError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "mismatch") {
		t.Fatalf("want checksum error, got %v", err)
	}
	if _, err := c.Get(ctx, srv.URL+"/a.jar", strings.Repeat("1", 64)); !errors.As(err, &ce) {
		t.Fatalf("Get with wrong sha256: %v", err)
	}
	if _, _, err := c.Verified(ctx, srv.URL+"/missing.jar", srv.URL+"/a.jar.sha1", "sha1"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestVerifiedReusesCache(t *testing.T) {
	content := "spark tarball"
	s1 := sha1.Sum([]byte(content))
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/s.tgz":
			hits++
			fmt.Fprint(w, content)
		case "/s.tgz.sha1":
			fmt.Fprint(w, hex.EncodeToString(s1[:]))
		}
	}))
	defer srv.Close()
	c := &Cache{Dir: t.TempDir()}
	for i := 0; i < 3; i++ {
		if _, _, err := c.Verified(t.Context(), srv.URL+"/s.tgz", srv.URL+"/s.tgz.sha1", "sha1"); err != nil {
			t.Fatal(err)
		}
	}
	if hits != 1 {
		t.Fatalf("downloaded %d times, want once", hits)
	}
}
