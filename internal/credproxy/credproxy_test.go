package credproxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// index stands in for a PyPI mirror that wants basic auth and writes
// absolute links to itself.
func index(t *testing.T) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "user" || p != "s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/simple/pkg/":
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, `<a href="`+srv.URL+`/files/pkg-1.0.whl">pkg-1.0.whl</a>`)
		case "/simple/old/":
			http.Redirect(w, r, srv.URL+"/simple/pkg/", http.StatusFound)
		case "/files/pkg-1.0.whl":
			w.Header().Set("Content-Type", "application/octet-stream")
			_, _ = io.WriteString(w, "wheel "+srv.URL)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestProxyAddsCredentialsAndKeepsLinksOnItself(t *testing.T) {
	up := index(t)
	p, err := Start(strings.Replace(up.URL, "http://", "http://user:s3cret@", 1) + "/simple")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	if strings.Contains(p.URL(), "s3cret") || !strings.HasPrefix(p.URL(), "http://127.0.0.1:") || !strings.HasSuffix(p.URL(), "/simple") {
		t.Fatalf("proxy URL %q: want http://127.0.0.1:PORT/simple without credentials", p.URL())
	}
	local := strings.TrimSuffix(p.URL(), "/simple")
	tests := []struct {
		path, want string
	}{
		{"/simple/pkg/", `<a href="` + local + `/files/pkg-1.0.whl">`},
		{"/simple/old/", `<a href="` + local + `/files/pkg-1.0.whl">`}, // the redirect is followed through the proxy
		{"/files/pkg-1.0.whl", "wheel " + up.URL},                      // file contents are left alone
	}
	for _, tt := range tests {
		resp, err := http.Get(local + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), tt.want) {
			t.Errorf("GET %s: %d %q, want 200 containing %q", tt.path, resp.StatusCode, body, tt.want)
		}
	}
}

func TestProxyRefusesNonHTTP(t *testing.T) {
	if _, err := Start("ftp://user:s3cret@example.com/simple"); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("Start(ftp://...) = %v, want an error without the password", err)
	}
}

func TestProxyAfterCloseRefuses(t *testing.T) {
	up := index(t)
	p, err := Start(strings.Replace(up.URL, "http://", "http://user:s3cret@", 1) + "/simple")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(p.URL() + "/pkg/"); err == nil {
		t.Error("the proxy still answers after Close")
	}
}
