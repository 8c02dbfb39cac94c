package standin

import (
	"archive/tar"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/docker/docker/client"
)

// EngineProxy is a Unix socket in front of the Docker Engine that passes
// every request on and records the build contexts sent through it: what a
// client really sends to the engine, file by file. Give devenv
// DOCKER_HOST=proxy.Host().
type EngineProxy struct {
	host   string
	mu     sync.Mutex
	builds []SentBuild
}

// SentBuild is one POST /build: its tags and the files of its context.
type SentBuild struct {
	Tags  []string
	Files map[string]int64 // context path -> size
	Bytes int64            // the context's size on the wire
}

// Holds reports whether the context held a file whose base name is name.
func (b SentBuild) Holds(name string) bool {
	for p := range b.Files {
		if filepath.Base(p) == name {
			return true
		}
	}
	return false
}

var buildPath = regexp.MustCompile(`^(/v[0-9.]+)?/build$`)

// NewEngineProxy starts the proxy in front of the engine the environment
// names and stops it at cleanup.
func NewEngineProxy(t testing.TB) *EngineProxy {
	t.Helper()
	cli := Docker(t)
	dir, err := os.MkdirTemp("", "devenv-proxy-") // short: a socket path holds at most 107 bytes
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	sock := filepath.Join(dir, "docker.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatalf("standin: engine proxy: %v", err)
	}
	p := &EngineProxy{host: "unix://" + sock}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme, r.Out.URL.Host = "http", "docker"
		},
		Transport:     &http.Transport{DialContext: engineDialer(cli)},
		FlushInterval: -1, // build and pull progress as it comes
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && buildPath.MatchString(r.URL.Path) {
			r.Body = p.record(r)
		}
		rp.ServeHTTP(w, r)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return p
}

// engineDialer dials the engine cli talks to.
func engineDialer(cli *client.Client) func(ctx context.Context, _, _ string) (net.Conn, error) {
	host := cli.DaemonHost()
	return func(ctx context.Context, _, _ string) (net.Conn, error) {
		u, err := url.Parse(host)
		if err != nil {
			return nil, err
		}
		var d net.Dialer
		if u.Scheme == "unix" {
			return d.DialContext(ctx, "unix", u.Path)
		}
		return d.DialContext(ctx, "tcp", u.Host)
	}
}

// Host is the DOCKER_HOST value that reaches the engine through the proxy.
func (p *EngineProxy) Host() string { return p.host }

// Builds lists the builds sent so far, in order.
func (p *EngineProxy) Builds() []SentBuild {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]SentBuild(nil), p.builds...)
}

// record reads the build context as it passes and adds it to p.builds once
// the request body is done.
func (p *EngineProxy) record(r *http.Request) io.ReadCloser {
	b := SentBuild{Tags: r.URL.Query()["t"], Files: map[string]int64{}}
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr := tar.NewReader(pr)
		for {
			hdr, err := tr.Next()
			if err != nil {
				break
			}
			b.Files[hdr.Name] = hdr.Size
		}
		_, _ = io.Copy(io.Discard, pr) // tar padding after the last entry
	}()
	return &recordingBody{body: r.Body, pw: pw, onClose: func(n int64) {
		_ = pw.Close()
		<-done
		b.Bytes = n
		p.mu.Lock()
		p.builds = append(p.builds, b)
		p.mu.Unlock()
	}}
}

// recordingBody copies what is read from body into pw.
type recordingBody struct {
	body    io.ReadCloser
	pw      *io.PipeWriter
	n       int64
	once    sync.Once
	onClose func(n int64)
}

func (b *recordingBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if n > 0 {
		b.n += int64(n)
		if _, werr := b.pw.Write(p[:n]); werr != nil && !errors.Is(werr, io.ErrClosedPipe) {
			return n, werr
		}
	}
	if err == io.EOF {
		b.finish()
	}
	return n, err
}

func (b *recordingBody) Close() error {
	b.finish()
	return b.body.Close()
}

func (b *recordingBody) finish() { b.once.Do(func() { b.onClose(b.n) }) }
