package dockercli_test

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/endpoint/dockercli"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/moby/moby/client"
)

// entry is one container of a `GET /containers/json` answer.
const entry = `{"Id":"8dfafdbc3a40","Names":["/demo-spark"],"Image":"devenv/demo-spark","Labels":{"dev.devenv.project":"demo"},"State":"running"}`

// fakeEngine poses as a Docker engine of API 1.41: /containers/json is a
// valid listing of size bytes (entries, with a pause between chunks), a
// container's /logs size bytes of log, and POST /exec/ID/start hijacks
// the connection and writes size bytes. sent counts what it wrote.
type fakeEngine struct {
	size  int64
	pause time.Duration
	sent  atomic.Int64
}

func (f *fakeEngine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/_ping"):
		w.Header().Set("Api-Version", "1.41")
		_, _ = w.Write([]byte("OK"))
	case strings.HasSuffix(p, "/containers/json"):
		w.Header().Set("Content-Type", "application/json")
		f.write(w, "[", entry+",", "{}]")
	case strings.HasSuffix(p, "/logs"):
		f.write(w, "", "log line\n", "")
	case strings.HasPrefix(p, "/v1.41/exec/") && strings.HasSuffix(p, "/start"):
		f.hijack(w, r)
	default:
		http.NotFound(w, r)
	}
}

// write sends head, chunk repeated to at least size bytes, and tail,
// until the client goes away.
func (f *fakeEngine) write(w io.Writer, head, chunk, tail string) {
	_, _ = io.WriteString(w, head)
	block := []byte(strings.Repeat(chunk, 64<<10/len(chunk)))
	for f.sent.Load() < f.size {
		n, err := w.Write(block)
		f.sent.Add(int64(n))
		if err != nil {
			return
		}
		if f.pause > 0 {
			w.(http.Flusher).Flush()
			time.Sleep(f.pause)
		}
	}
	_, _ = io.WriteString(w, tail)
}

func (f *fakeEngine) hijack(w http.ResponseWriter, r *http.Request) {
	// the exec's options, read first: closing a connection with unread
	// input resets it, and the client would lose the output's end
	_, _ = io.Copy(io.Discard, r.Body)
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer func() { _ = conn.Close() }()
	_, _ = buf.WriteString("HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n")
	f.write(buf, "", "exec output\n", "")
	_ = buf.Flush()
}

// sdkClient is the Compose SDK's client (dockercli.New's) of the engine
// at host, resolved from env as devenv resolves DOCKER_HOST.
func sdkClient(t *testing.T, env map[string]string, answer time.Duration) (client.APIClient, *endpoint.Endpoint) {
	t.Helper()
	opts := endpoint.Options{ConfigDir: t.TempDir(), Getenv: func(k string) string { return env[k] }}
	ep, err := endpoint.Resolve(opts)
	if err != nil {
		t.Fatal(err)
	}
	cli, err := dockercli.New(ep, opts, dockercli.CLIOptions{Answer: answer, Out: io.Discard, Err: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cli.Client().Close() })
	return cli.Client(), ep
}

func plainHost(srv *httptest.Server) string {
	return "tcp://" + strings.TrimPrefix(srv.URL, "http://")
}

// TestSDKClientCapsAnswers: the SDK's client reads an engine answer that
// is not a stream at most engine.MaxAnswer bytes and for at most the
// answer timeout, as devenv's own client does; classified, the failure
// is an unreachable engine (exit 3) that names the request and the
// endpoint. An answer under the cap is read whole.
func TestSDKClientCapsAnswers(t *testing.T) {
	tests := []struct {
		name   string
		size   int64
		pause  time.Duration
		answer time.Duration
		says   string // "" for no error
	}{
		{"a listing under the cap", 4 << 20, 0, 20 * time.Second, ""},
		{"a listing over the cap", 64 << 20, 0, 20 * time.Second, "went over 8 MiB"},
		{"a listing that trickles past the answer timeout", 64 << 20, 20 * time.Millisecond, time.Second, "still coming after 1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeEngine{size: tt.size, pause: tt.pause}
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			api, ep := sdkClient(t, map[string]string{"DOCKER_HOST": plainHost(srv)}, tt.answer)

			start := time.Now()
			got, err := api.ContainerList(t.Context(), client.ContainerListOptions{All: true})
			took := time.Since(start)
			if tt.says == "" {
				if want := tt.size/int64(len(entry)+1) + 1; err != nil || int64(len(got.Items)) < want {
					t.Fatalf("ContainerList = %d containers, %v; want at least %d and no error", len(got.Items), err, want)
				}
				return
			}
			var ae *engine.AnswerError
			if !errors.As(err, &ae) {
				t.Fatalf("ContainerList = %d containers, %v; want an AnswerError saying %q", len(got.Items), err, tt.says)
			}
			classified := engine.Classify("list the containers", ep.String(), err)
			msg := classified.Error()
			for _, want := range []string{tt.says, "GET /containers/json", ep.String()} {
				if !strings.Contains(msg, want) {
					t.Errorf("classified error %q does not say %q", msg, want)
				}
			}
			if !errors.Is(classified, engine.ErrUnreachable) {
				t.Errorf("classified error %q is not ErrUnreachable (exit 3)", msg)
			}
			if took > 30*time.Second {
				t.Errorf("took %s to give up", took)
			}
			// what the engine could write before the client stopped
			// reading: the cap and the sockets' buffers, not the answer
			if sent := f.sent.Load(); sent >= tt.size/2 {
				t.Errorf("the engine wrote %d MiB of its %d MiB answer before the client stopped reading", sent>>20, tt.size>>20)
			}
		})
	}
}

// TestSDKClientReadsStreamsWhole: streams are the caller's to end, as in
// devenv's own client: logs over the cap are read whole, and so is an exec
// attach (a hijacked connection) over TLS, which the moby client can dial
// only from an *http.Transport the cap has not wrapped.
func TestSDKClientReadsStreamsWhole(t *testing.T) {
	const size = 12 << 20
	t.Run("logs", func(t *testing.T) {
		f := &fakeEngine{size: size}
		srv := httptest.NewServer(f)
		t.Cleanup(srv.Close)
		api, _ := sdkClient(t, map[string]string{"DOCKER_HOST": plainHost(srv)}, 20*time.Second)
		logs, err := api.ContainerLogs(t.Context(), "demo-spark", client.ContainerLogsOptions{ShowStdout: true})
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = logs.Close() }()
		if n, err := io.Copy(io.Discard, logs); err != nil || n < size || n != f.sent.Load() {
			t.Errorf("read %d bytes of logs, %v; want all %d", n, err, f.sent.Load())
		}
	})
	t.Run("exec attach over TLS", func(t *testing.T) {
		f := &fakeEngine{size: size}
		srv := httptest.NewTLSServer(f)
		t.Cleanup(srv.Close)
		env := map[string]string{"DOCKER_HOST": "tcp://" + srv.Listener.Addr().String(), "DOCKER_TLS_VERIFY": "1", "DOCKER_CERT_PATH": certPath(t, srv)}
		api, _ := sdkClient(t, env, 20*time.Second)
		res, err := api.ExecAttach(t.Context(), "exec1", client.ExecAttachOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		if n, err := io.Copy(io.Discard, res.Reader); err != nil || n < size || n != f.sent.Load() {
			t.Errorf("read %d bytes of the exec's output, %v; want all %d", n, err, f.sent.Load())
		}
	})
}

// certPath is a DOCKER_CERT_PATH trusting srv's certificate (ca.pem) and
// presenting it as the client's (the server asks for none).
func certPath(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	pair := srv.TLS.Certificates[0]
	key, err := x509.MarshalPKCS8PrivateKey(pair.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: pair.Certificate[0]})
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"ca.pem": cert, "cert.pem": cert,
		"key.pem": pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: key}),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
