package registry

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"

	"github.com/devenv-dev/devenv/internal/httpx"
)

// TestDigestNamesTheNetworkFailure: a registry that cannot be reached is
// named as a network failure, with its host, before any advice, and
// credential advice (docker login, NGC_API_KEY) comes only when the
// registry answered 401 or 403.
func TestDigestNamesTheNetworkFailure(t *testing.T) {
	status := func(code int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v2/" {
				w.WriteHeader(http.StatusOK)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			_, _ = w.Write([]byte(`{"errors":[{"code":"DENIED","message":"no"}]}`))
		}))
		t.Cleanup(srv.Close)
		return strings.TrimPrefix(srv.URL, "http://")
	}
	cases := []struct {
		name      string
		host      func(t *testing.T) string
		want      []string // in this order
		forbidden []string
	}{
		{
			name:      "unresolvable name",
			host:      func(*testing.T) string { return "registry.devenv-test.invalid" },
			want:      []string{"registry registry.devenv-test.invalid", "network: the name registry.devenv-test.invalid does not resolve (DNS", "mirrors.registries"},
			forbidden: []string{"docker login", "NGC_API_KEY"},
		},
		{
			name:      "closed port",
			host:      closedPort,
			want:      []string{"network: connection refused by 127.0.0.1:", "mirrors.registries"},
			forbidden: []string{"docker login", "NGC_API_KEY"},
		},
		{
			name:      "no answer",
			host:      stalled,
			want:      []string{"network: timeout: 127.0.0.1:", "did not answer"},
			forbidden: []string{"docker login", "NGC_API_KEY"},
		},
		{
			name: "401",
			host: func(*testing.T) string { return status(http.StatusUnauthorized) },
			want: []string{"401", "refused the credentials", "docker login 127.0.0.1:"},
		},
		{
			name: "403",
			host: func(*testing.T) string { return status(http.StatusForbidden) },
			want: []string{"403", "refused the credentials", "docker login 127.0.0.1:"},
		},
		{
			name:      "404",
			host:      func(*testing.T) string { return status(http.StatusNotFound) },
			want:      []string{"404", "no such image", "check the name and tag"},
			forbidden: []string{"docker login", "network:"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := httpx.Transport(httpx.Limits{Connect: time.Second, Header: 300 * time.Millisecond, Idle: 300 * time.Millisecond, Attempts: 1, Budget: httpx.NewBudget(5 * time.Second)})
			_, err := Pinner{Transport: tr, Keychain: authn.NewMultiKeychain()}.Digest(t.Context(), c.host(t)+"/nvidia/cuda:12")
			if err == nil {
				t.Fatal("Digest succeeded, want an error")
			}
			msg := err.Error()
			at := 0
			for _, w := range c.want {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("error %q lacks %q after byte %d", msg, w, at)
				}
				at += i + len(w)
			}
			for _, f := range c.forbidden {
				if strings.Contains(msg, f) {
					t.Errorf("error %q holds %q", msg, f)
				}
			}
		})
	}
}

// TestCredentialHintForNGC: a 401 from nvcr.io itself points at NGC's key.
func TestCredentialHintForNGC(t *testing.T) {
	if h := credentialHint("nvcr.io"); !strings.Contains(h, "docker login nvcr.io -u '$oauthtoken'") || !strings.Contains(h, "NGC_API_KEY") {
		t.Errorf("credentialHint(nvcr.io) = %q", h)
	}
}

// closedPort is a 127.0.0.1 port nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host := ln.Addr().String()
	_ = ln.Close()
	return host
}

// stalled is a server that accepts connections and never answers.
func stalled(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); _ = ln.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				_ = c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	return ln.Addr().String()
}
