package engine

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeEndlessEngine answers the ping like an engine of API 1.41 and
// /containers/json with entry repeated forever (or every pause).
func fakeEndlessEngine(t *testing.T, entry string, pause time.Duration) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/_ping") {
			w.Header().Set("API-Version", "1.41")
			_, _ = w.Write([]byte("OK"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("["))
		chunk := []byte(strings.Repeat(entry+",", 64))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			if pause > 0 {
				w.(http.Flusher).Flush()
				time.Sleep(pause)
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "tcp://" + strings.TrimPrefix(srv.URL, "http://")
}

// realEntry is one container of a real `GET /containers/json` answer
// (Docker 20.10), about 700 bytes.
const realEntry = `{"Id":"8dfafdbc3a40","Names":["/demo-spark"],"Image":"devenv/demo-spark:0123456789ab","ImageID":"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","Command":"/usr/bin/tini -- sleep infinity","Created":1733000000,"Ports":[{"IP":"127.0.0.1","PrivatePort":4040,"PublicPort":4040,"Type":"tcp"}],"Labels":{"dev.devenv.project":"demo","dev.devenv.service":"spark","dev.devenv.config-hash":"0123456789abcdef"},"State":"running","Status":"Up 2 hours","HostConfig":{"NetworkMode":"demo"},"NetworkSettings":{"Networks":{"demo":{"NetworkID":"0123456789abcdef","EndpointID":"fedcba9876543210","Gateway":"172.18.0.1","IPAddress":"172.18.0.2","IPPrefixLen":16,"MacAddress":"02:42:ac:12:00:02"}}},"Mounts":[]}`

// TestEndlessAnswerIsCutOff: an engine whose container listing never ends
// (by size, or by time at a trickle) fails the call with an error naming
// the request, as an unreachable engine (exit 3), with the heap bounded.
func TestEndlessAnswerIsCutOff(t *testing.T) {
	tests := []struct {
		name    string
		entry   string
		pause   time.Duration
		timeout string
		says    string
		maxHeap uint64
	}{
		{"endless real containers", realEntry, 0, "", "went over 8 MiB", 200 << 20},
		{"endless empty objects", "{}", 0, "", "went over 8 MiB", 200 << 20},
		{"a trickle that never ends", realEntry, 20 * time.Millisecond, "1s", "still coming after 1s", 200 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DOCKER_HOST", fakeEndlessEngine(t, tt.entry, tt.pause))
			t.Setenv("DOCKER_TLS_VERIFY", "")
			t.Setenv("DOCKER_API_VERSION", "")
			if tt.timeout != "" {
				t.Setenv("DEVENV_ENGINE_TIMEOUT", tt.timeout)
			}
			e, err := Connect(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = e.Close() }()
			peak := watchHeap(t)
			start := time.Now()
			_, err = e.List(t.Context(), Containers, map[string]string{"dev.devenv.project": "demo"})
			took := time.Since(start)
			var ae *AnswerError
			if !errors.As(err, &ae) || !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "GET /containers/json") {
				t.Fatalf("List = %v, want an AnswerError saying %q, classified unreachable", err, tt.says)
			}
			if took > 30*time.Second {
				t.Errorf("took %s", took)
			}
			if p := peak(); p > tt.maxHeap {
				t.Errorf("peak heap %d MiB, want under %d MiB", p>>20, tt.maxHeap>>20)
			} else {
				t.Logf("%s: %s, peak heap %d MiB", tt.name, took.Round(time.Millisecond), p>>20)
			}
		})
	}
}

// watchHeap samples the heap in use until the returned function is called,
// which returns the peak.
func watchHeap(t *testing.T) func() uint64 {
	t.Helper()
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}
