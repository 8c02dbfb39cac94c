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

// TestDownloadRestartsShareTheBudget: a server that sends half of every
// file and stops, asked for three files, each download started again up
// to three times and each request tried three times, gives up in about the
// budget rather than 3 x 3 x 3 idle limits.
func TestDownloadRestartsShareTheBudget(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("half a file"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	budget := httpx.NewBudget(700 * time.Millisecond)
	c := &Cache{Dir: t.TempDir(), Client: httpx.Client(httpx.Limits{Connect: time.Second, Header: time.Second, Idle: 200 * time.Millisecond, Attempts: 3, Backoff: 10 * time.Millisecond, Budget: budget})}
	start := time.Now()
	for _, f := range []string{"a.jar", "b.jar", "c.tgz"} {
		_, err := c.Get(t.Context(), srv.URL+"/"+f, strings.Repeat("0", 64))
		if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(srv.URL, "http://")) {
			t.Fatalf("%s: %v, want a stall naming the server", f, err)
		}
	}
	// Without the budget: 3 files x 3 restarts x 200ms idle = 1.8 s at least.
	if d := time.Since(start); d > budget.Total()+400*time.Millisecond {
		t.Errorf("three stalled downloads took %s, want about the budget %s", d, budget.Total())
	}
}
