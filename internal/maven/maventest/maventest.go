// Package maventest serves a directory laid out as a Maven repository over
// local HTTP, for tests: every POM there, a small jar next to each POM of
// a jar (or bundle) artifact, and .sha1 and .sha256 files that really are
// the checksums of what is served.
package maventest

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Server is a Maven repository over HTTP.
type Server struct {
	URL   string // the repository base
	files map[string][]byte
	mu    sync.Mutex
	reqs  []string
}

// Serve serves dir (a Maven layout) until the test ends.
func Serve(t testing.TB, dir string) *Server {
	t.Helper()
	s := &Server{files: map[string][]byte{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s.add(filepath.ToSlash(rel), data)
		if strings.HasSuffix(rel, ".pom") && !strings.Contains(string(data), "<packaging>pom</packaging>") {
			base := strings.TrimSuffix(filepath.ToSlash(rel), ".pom")
			s.add(base+".jar", Jar(base+".jar"))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("maventest: %v", err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	s.URL = ts.URL + "/maven2"
	return s
}

// Jar is the content served for a jar path: small, distinct per path.
func Jar(p string) []byte { return []byte("PK\x03\x04 jar stand-in for " + p + "\n") }

// AddJar serves one more jar (a classifier's) at a repository path.
func (s *Server) AddJar(p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.add(p, Jar(p))
}

func (s *Server) add(p string, data []byte) {
	s.files[p] = data
	h1 := sha1.Sum(data)
	h256 := sha256.Sum256(data)
	s.files[p+".sha1"] = []byte(hex.EncodeToString(h1[:]) + "\n")
	s.files[p+".sha256"] = []byte(hex.EncodeToString(h256[:]) + "\n")
}

// SHA256 is the sha256 of the file served at a repository path.
func (s *Server) SHA256(p string) string {
	h := sha256.Sum256(s.files[p])
	return hex.EncodeToString(h[:])
}

// Requests lists the repository paths asked for, in order.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reqs...)
}

// ServeHTTP answers GET under /maven2/.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, ok := strings.CutPrefix(r.URL.Path, "/maven2/")
	s.mu.Lock()
	s.reqs = append(s.reqs, p)
	data, found := s.files[p]
	s.mu.Unlock()
	if !ok || !found || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	_, _ = w.Write(data)
}
