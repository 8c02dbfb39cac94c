package standin

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
)

// PyPIServer is a PEP 503 "simple" package index on 127.0.0.1 holding
// small pure-Python wheels made in Go, standing in for PyPI through
// devenv's mirrors.pypi.
type PyPIServer struct {
	url    string
	wheels map[string][]byte // file name -> wheel
	mu     sync.Mutex
	reqs   []string
	user   string // when set, every request needs basic auth user:pass
	pass   string
}

// RequireAuth makes the index answer 401 to requests without basic auth
// user:pass, as a corporate mirror does.
func (s *PyPIServer) RequireAuth(user, pass string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.user, s.pass = user, pass
}

// AuthURL is the index URL with the credentials in it.
func (s *PyPIServer) AuthURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Replace(s.url, "http://", "http://"+s.user+":"+s.pass+"@", 1)
}

// PyPI serves one wheel per "name==version" given; each package's module
// (the name with '-' as '_') holds VERSION = "<version>".
func PyPI(t testing.TB, pins ...string) *PyPIServer {
	t.Helper()
	s, err := NewPyPI(pins...)
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("standin: PyPI listen: %v", err)
	}
	t.Cleanup(s.Serve(ln))
	return s
}

// NewPyPI is PyPI for a program: the index, not yet served (Serve does).
func NewPyPI(pins ...string) (*PyPIServer, error) {
	s := &PyPIServer{wheels: map[string][]byte{}}
	for _, pin := range pins {
		name, version, ok := strings.Cut(pin, "==")
		if !ok {
			return nil, errorf("PyPI wants name==version, got %q", pin)
		}
		file, data, err := Wheel(name, version)
		if err != nil {
			return nil, err
		}
		s.wheels[file] = data
	}
	return s, nil
}

// Serve serves the index on ln, sets URL, and returns the function that
// stops the server.
func (s *PyPIServer) Serve(ln net.Listener) (stop func()) {
	srv := &http.Server{Handler: s}
	go func() { _ = srv.Serve(ln) }() // ends with ErrServerClosed when stopped
	s.mu.Lock()
	s.url = "http://" + ln.Addr().String() + "/simple"
	s.mu.Unlock()
	return func() { _ = srv.Close() }
}

// URL is the index URL to give mirrors.pypi.
func (s *PyPIServer) URL() string { return s.url }

// Requests lists the paths asked for, in order.
func (s *PyPIServer) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reqs...)
}

func (s *PyPIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r.URL.Path)
	user, pass := s.user, s.pass
	s.mu.Unlock()
	if u, p, ok := r.BasicAuth(); user != "" && (!ok || u != user || p != pass) {
		w.Header().Set("WWW-Authenticate", `Basic realm="pypi"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	path := strings.TrimPrefix(r.URL.Path, "/simple/")
	if file, ok := strings.CutPrefix(path, "files/"); ok {
		data, ok := s.wheels[file]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(data) // a client gone mid-download is its own failure
		return
	}
	project := normalize(strings.Trim(path, "/"))
	var links []string
	for file, data := range s.wheels {
		if normalize(strings.SplitN(file, "-", 2)[0]) == project {
			sum := sha256.Sum256(data)
			links = append(links, fmt.Sprintf(`<a href="/simple/files/%s#sha256=%s">%s</a><br/>`,
				html.EscapeString(file), hex.EncodeToString(sum[:]), html.EscapeString(file)))
		}
	}
	if len(links) == 0 {
		http.NotFound(w, r)
		return
	}
	sort.Strings(links)
	fmt.Fprintf(w, "<!DOCTYPE html><html><body>\n%s\n</body></html>\n", strings.Join(links, "\n"))
}

// normalize is PEP 503's project name normalization.
func normalize(name string) string {
	name = strings.ToLower(name)
	return strings.NewReplacer("_", "-", ".", "-").Replace(name)
}

// Wheel builds a pure-Python wheel for name==version (PEP 427) and returns
// its file name and bytes; the same input gives the same bytes.
func Wheel(name, version string) (string, []byte, error) {
	if strings.EqualFold(name, "jupyterlab") {
		return jupyterLabWheel(version)
	}
	return wheel(name, version, nil)
}

// wheelFile is one file of a wheel, by its path in the archive.
type wheelFile struct{ name, body string }

// wheel makes a pure-Python wheel whose module holds VERSION, plus extra
// files (paths relative to the archive root).
func wheel(name, version string, extra []wheelFile) (string, []byte, error) {
	mod := strings.ReplaceAll(strings.ToLower(name), "-", "_")
	dist := mod + "-" + version
	files := []wheelFile{
		{mod + "/__init__.py", fmt.Sprintf("VERSION = %q\n", version)},
		{dist + ".dist-info/METADATA", fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: %s\n", name, version)},
		{dist + ".dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: devenv-standin\nRoot-Is-Purelib: true\nTag: py3-none-any\n"},
	}
	for _, f := range extra {
		files = append(files, wheelFile{strings.ReplaceAll(f.name, "{dist}", dist), f.body})
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var record strings.Builder
	for _, f := range files {
		if err := writeZipFile(zw, f.name, f.body); err != nil {
			return "", nil, err
		}
		sum := sha256.Sum256([]byte(f.body))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", f.name, base64.RawURLEncoding.EncodeToString(sum[:]), len(f.body))
	}
	fmt.Fprintf(&record, "%s.dist-info/RECORD,,\n", dist)
	if err := writeZipFile(zw, dist+".dist-info/RECORD", record.String()); err != nil {
		return "", nil, err
	}
	if err := zw.Close(); err != nil {
		return "", nil, err
	}
	return dist + "-py3-none-any.whl", buf.Bytes(), nil
}

func writeZipFile(zw *zip.Writer, name, body string) error {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
	if err != nil {
		return err
	}
	_, err = w.Write([]byte(body))
	return err
}
