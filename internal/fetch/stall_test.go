package fetch

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/httpx"
)

func TestGetWithAStallingServer(t *testing.T) {
	data := strings.Repeat("spark", 1000)
	sum := sha256.Sum256([]byte(data))
	want := hex.EncodeToString(sum[:])
	tests := []struct {
		name    string
		stalls  int32 // requests that send half the file and then hang
		wantErr bool
	}{
		{"no stall", 0, false},
		{"one stall, then the whole file", 1, false},
		{"stalls every time", 100, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) <= tt.stalls {
					_, _ = w.Write([]byte(data[:len(data)/2]))
					w.(http.Flusher).Flush()
					<-r.Context().Done()
					return
				}
				_, _ = w.Write([]byte(data))
			}))
			defer srv.Close()
			c := &Cache{Dir: t.TempDir(), Client: httpx.Client(httpx.Limits{Connect: time.Second, Header: time.Second, Idle: 150 * time.Millisecond, Attempts: 1})}
			path, err := c.Get(t.Context(), srv.URL+"/spark.tgz", want)
			var stall *httpx.StallError
			switch {
			case tt.wantErr && !errors.As(err, &stall):
				t.Fatalf("Get = %v, want a stall naming the server", err)
			case tt.wantErr && !strings.Contains(err.Error(), strings.TrimPrefix(srv.URL, "http://")):
				t.Errorf("error does not name the server: %v", err)
			case !tt.wantErr && (err != nil || path != c.Path(want)):
				t.Fatalf("Get = %q, %v", path, err)
			}
		})
	}
}
