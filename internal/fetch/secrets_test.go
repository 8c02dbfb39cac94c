package fetch

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestErrorsNeverShowTheMirrorPassword: every way a download through a
// mirror URL with credentials fails (a 404, a wrong checksum, an
// unparsable URL, a refused connection, a bad checksum file) gives an
// error without the password.
func TestErrorsNeverShowTheMirrorPassword(t *testing.T) {
	const pw = "hunter2-mirror"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a.jar":
			_, _ = w.Write([]byte("jar"))
		case "/a.jar.sha1":
			_, _ = w.Write([]byte(strings.Repeat("0", 40)))
		case "/garbage.sha1":
			_, _ = w.Write([]byte("not a checksum"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	authed := strings.Replace(srv.URL, "http://", "http://bob:"+pw+"@", 1)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://bob:" + pw + "@" + l.Addr().String()
	_ = l.Close()
	c := &Cache{Dir: t.TempDir()}
	ctx := t.Context()
	tests := []struct {
		name string
		run  func() error
	}{
		{"404", func() error {
			_, _, err := c.Verified(ctx, authed+"/missing.jar", authed+"/a.jar.sha1", "sha1")
			return err
		}},
		{"checksum mismatch", func() error { _, _, err := c.Verified(ctx, authed+"/a.jar", authed+"/a.jar.sha1", "sha1"); return err }},
		{"checksum file garbage", func() error {
			_, _, err := c.Verified(ctx, authed+"/a.jar", authed+"/garbage.sha1", "sha1")
			return err
		}},
		{"unparsable URL", func() error { _, err := c.Get(ctx, "http://bob:"+pw+"@host/%zz", strings.Repeat("1", 64)); return err }},
		{"connection refused", func() error { _, err := c.Get(ctx, closed+"/a.jar", strings.Repeat("2", 64)); return err }},
		{"wrong sha256", func() error { _, err := c.Get(ctx, authed+"/a.jar", strings.Repeat("3", 64)); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), pw) {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}
