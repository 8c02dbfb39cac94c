package engine

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docker/docker/client"
)

// quietEngine streams a build that prints one line, stays silent for
// quiet, then finishes; after freezeAfter pings it stops answering pings.
func quietEngine(t *testing.T, quiet time.Duration, freezeAfter int32) *docker {
	var pings atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/_ping"):
			if pings.Add(1) > freezeAfter {
				<-r.Context().Done()
				return
			}
			w.Header().Set("Api-Version", "1.41")
			_, _ = io.WriteString(w, "OK")
		case strings.HasSuffix(r.URL.Path, "/json"): // container inspect
			_, _ = io.WriteString(w, `{"Id":"c1","Config":{"Tty":true}}`)
		case strings.HasSuffix(r.URL.Path, "/containers/c1/exec"):
			_, _ = io.Copy(io.Discard, r.Body)
			_, _ = io.WriteString(w, `{"Id":"e1"}`)
		case strings.HasSuffix(r.URL.Path, "/exec/e1/start"):
			hijackedExec(t, w, quiet)
		case strings.HasSuffix(r.URL.Path, "/exec/e1/json"):
			_, _ = io.WriteString(w, `{"Running":false,"ExitCode":0}`)
		case strings.HasSuffix(r.URL.Path, "/logs"):
			_, _ = io.WriteString(w, "a line\n")
			w.(http.Flusher).Flush()
			select {
			case <-time.After(quiet):
			case <-r.Context().Done():
			}
		case strings.HasSuffix(r.URL.Path, "/build"):
			_, _ = io.Copy(io.Discard, r.Body)
			_, _ = io.WriteString(w, `{"stream":"Step 1/2 : RUN sleep 600\n"}`+"\n")
			w.(http.Flusher).Flush()
			select {
			case <-time.After(quiet):
				_, _ = io.WriteString(w, `{"aux":{"ID":"sha256:abc"}}`+"\n")
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	cli, err := client.NewClientWithOpts(client.WithHost("tcp://"+strings.TrimPrefix(srv.URL, "http://")), client.WithVersion("1.41"))
	if err != nil {
		t.Fatal(err)
	}
	return &docker{cli: cli, host: srv.URL}
}

// TestWatchdog: a build, logs -f and an exec that stay quiet while the
// engine answers its pings go on; when the engine stops answering, each
// ends with ErrUnreachable.
func TestWatchdog(t *testing.T) {
	t.Setenv("DEVENV_ENGINE_TIMEOUT", "600ms")
	ops := []struct {
		name string
		// run does the operation against d: what it printed, its exit code
		run    func(t *testing.T, d *docker) (printed string, code int, err error)
		prints bool // the engine's one line reaches the caller
		fast   bool // a hung engine's error says it stopped answering, within 10 s
	}{
		{"build", func(t *testing.T, d *docker) (string, int, error) {
			id, err := d.Build(t.Context(), BuildRequest{Context: strings.NewReader(""), Tags: []string{"x"}}, nil)
			return id, 0, err
		}, false, true},
		{"logs -f", func(t *testing.T, d *docker) (string, int, error) {
			var out strings.Builder
			err := d.Logs(t.Context(), "c1", LogOptions{Follow: true}, &out, io.Discard)
			return out.String(), 0, err
		}, true, false},
		{"exec", func(t *testing.T, d *docker) (string, int, error) {
			var out strings.Builder
			code, err := d.Exec(t.Context(), "c1", ExecOptions{Cmd: []string{"sleep", "600"}, TTY: true, Stdout: &out})
			return out.String(), code, err
		}, true, true},
	}
	cases := []struct {
		name        string
		quiet       time.Duration
		freezeAfter int32
		unreachable bool
	}{
		{"quiet with the engine answering is no failure", 2 * time.Second, 1 << 30, false},
		{"a hung engine ends it", time.Minute, 1, true},
	}
	for _, op := range ops {
		for _, tt := range cases {
			t.Run(op.name+": "+tt.name, func(t *testing.T) {
				d := quietEngine(t, tt.quiet, tt.freezeAfter)
				start := time.Now()
				printed, code, err := op.run(t, d)
				if got := errors.Is(err, ErrUnreachable); got != tt.unreachable {
					t.Fatalf("%s = %q, %d, %v; unreachable %v, want %v", op.name, printed, code, err, got, tt.unreachable)
				}
				if op.fast && tt.unreachable && (time.Since(start) > 10*time.Second || !strings.Contains(err.Error(), "stopped answering")) {
					t.Errorf("after %s: %v", time.Since(start), err)
				}
				if !tt.unreachable && code != 0 {
					t.Errorf("exit code %d, want 0", code)
				}
				if op.prints && !strings.Contains(printed, "a line") {
					t.Errorf("%s printed %q", op.name, printed)
				}
			})
		}
	}
}

// hijackedExec answers an exec start as the engine does (the connection
// upgraded to a raw stream), prints one line, stays silent for quiet and
// ends the stream.
func hijackedExec(t *testing.T, w http.ResponseWriter, quiet time.Duration) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	defer func() { _ = conn.Close() }()
	_, _ = buf.WriteString("HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\na line\n")
	_ = buf.Flush()
	_ = conn.SetReadDeadline(time.Now().Add(quiet))
	_, _ = io.Copy(io.Discard, conn) // until quiet passes or the client hangs up
}
