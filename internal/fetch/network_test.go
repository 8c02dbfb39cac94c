package fetch

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/httpx"
)

// TestDownloadNamesTheNetworkFailure: an artifact server never reached is
// named as a network failure (the name, the refusal), with its host and the
// mirror keys to set, before anything else.
func TestDownloadNamesTheNetworkFailure(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	_ = l.Close() // nothing listens there now
	tests := []struct {
		name, url string
		want      []string
	}{
		{"unresolvable name", "https://repo.devenv-test.invalid/x.jar",
			[]string{"network: the name repo.devenv-test.invalid does not resolve", "mirrors.maven"}},
		{"closed port", "http://" + closed + "/x.jar",
			[]string{"network: connection refused by " + closed, "mirrors.apache"}},
	}
	lim := httpx.DefaultLimits()
	lim.Attempts, lim.Backoff, lim.Connect = 1, time.Millisecond, 10*time.Second
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Cache{Dir: t.TempDir(), Client: httpx.Client(lim)}
			_, err := c.Get(t.Context(), tt.url, strings.Repeat("0", 64))
			if err == nil {
				t.Fatal("Get succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
