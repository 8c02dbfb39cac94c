package standin

import (
	"bytes"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-multierror"
)

// ArtifactServer is an HTTP server on 127.0.0.1 with a Maven repository
// layout under /maven2 and the Apache archive layout under /apache, serving
// generated stand-ins of the Spark distributions and RAPIDS jars devenv
// downloads. Paths given to its methods are server paths such as
// SparkPath and RapidsPath return, with or without a leading slash.
type ArtifactServer struct {
	t        testing.TB
	url      string
	files    map[string][]byte    // server path -> content, checksum files included
	disk     map[string]largeFile // server path -> a large generated file (WithSizes)
	sums     map[string]string    // checksum file path -> path of the file it checks
	mu       sync.Mutex
	corrupt  map[string]bool
	requests []string
}

// Artifacts starts an artifact server with the given options and closes it
// at cleanup. Without options it serves Spark 3.5.6 for Scala 2.12 and 2.13
// and RAPIDS 25.06.0 for both Scalas, without classifier and as cuda12.
func Artifacts(t testing.TB, opts ...ArtifactOption) *ArtifactServer {
	t.Helper()
	s, err := NewArtifacts(opts...)
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	s.t = t
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("standin: artifact server cannot listen on 127.0.0.1: %v", err)
	}
	t.Cleanup(s.Serve(l))
	return s
}

// NewArtifacts is Artifacts for a program: the server's files, made from
// the options, not yet served (Serve does). SHA256, Content and Corrupt,
// which fail a test, need a server from Artifacts.
func NewArtifacts(opts ...ArtifactOption) (*ArtifactServer, error) {
	cfg := defaultArtifactConfig()
	for _, o := range opts {
		o(&cfg)
	}
	s := &ArtifactServer{files: map[string][]byte{}, disk: map[string]largeFile{}, sums: map[string]string{}, corrupt: map[string]bool{}}
	if err := s.populate(cfg); err != nil {
		return nil, errorf("Artifacts options: %v", err)
	}
	return s, nil
}

// Serve serves the files on l, sets URL, and returns the function that
// stops the server.
func (s *ArtifactServer) Serve(l net.Listener) (stop func()) {
	srv := &http.Server{Handler: s}
	go func() { _ = srv.Serve(l) }()
	s.url = "http://" + l.Addr().String()
	return func() { _ = srv.Close() }
}

// URL is the server's base URL, "http://127.0.0.1:PORT".
func (s *ArtifactServer) URL() string { return s.url }

// MavenURL is the value for devenv.yaml's mirrors.maven.
func (s *ArtifactServer) MavenURL() string { return s.url + "/maven2" }

// ApacheURL is the value for devenv.yaml's mirrors.apache.
func (s *ArtifactServer) ApacheURL() string { return s.url + "/apache" }

// Paths lists every served path, checksum files included, sorted.
func (s *ArtifactServer) Paths() []string {
	paths := make([]string, 0, len(s.files)+len(s.disk))
	for p := range s.files {
		paths = append(paths, p)
	}
	for p := range s.disk {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// SHA256 is the lower-case hex sha256 of the file served at path: what
// devenv should record in devenv.lock. It fails the test for an unknown path.
func (s *ArtifactServer) SHA256(path string) string {
	s.t.Helper()
	if f, ok := s.disk[cleanPath(path)]; ok {
		return f.SHA256
	}
	return sha256Hex(s.content(path))
}

// LocalFile is where a file generated WithSizes lies on disk ("" for the
// files served from memory).
func (s *ArtifactServer) LocalFile(path string) string { return s.disk[cleanPath(path)].Path }

// Content is the bytes served at path. It fails the test for an unknown path.
func (s *ArtifactServer) Content(path string) []byte {
	s.t.Helper()
	return bytes.Clone(s.content(path))
}

func (s *ArtifactServer) content(path string) []byte {
	s.t.Helper()
	b, ok := s.files[cleanPath(path)]
	if !ok {
		s.t.Fatalf("standin: the artifact server has no %q; it serves:\n  %s", path, strings.Join(s.Paths(), "\n  "))
	}
	return b
}

// Corrupt makes the checksum files of path (.sha512 or .sha1) announce a
// wrong digest from now on, while the file itself is served unchanged: the
// negative test for devenv's checksum verification.
func (s *ArtifactServer) Corrupt(path string) {
	s.t.Helper()
	s.content(path) // fail on unknown paths
	s.mu.Lock()
	defer s.mu.Unlock()
	s.corrupt[cleanPath(path)] = true
}

// Requests lists the URL paths of every request received so far, in order,
// including those answered 404.
func (s *ArtifactServer) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// ServeHTTP answers GET and HEAD for the served paths.
func (s *ArtifactServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.Path)
	s.mu.Unlock()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "the artifact stand-in serves GET and HEAD only", http.StatusMethodNotAllowed)
		return
	}
	p := cleanPath(r.URL.Path)
	if f, ok := s.disk[p]; ok {
		w.Header().Set("Content-Type", "application/octet-stream")
		http.ServeFile(w, r, f.Path)
		return
	}
	body, ok := s.files[p]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if target, isSum := s.sums[p]; isSum && s.isCorrupt(target) {
		body = s.checksumFile(p, append(bytes.Clone(s.files[target]), "corrupted by the test"...))
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	http.ServeContent(w, r, p, archiveTime, bytes.NewReader(body))
}

func (s *ArtifactServer) isCorrupt(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.corrupt[path]
}

func cleanPath(p string) string { return strings.TrimPrefix(p, "/") }

var (
	sparkVersionRE  = regexp.MustCompile(`^[34]\.\d+\.\d+$`)
	rapidsVersionRE = regexp.MustCompile(`^\d{2}\.\d{2}\.\d+$`)
	classifierRE    = regexp.MustCompile(`^[a-z0-9-]*$`)
)

// populate generates every file the options ask for, reporting all invalid
// options at once.
func (s *ArtifactServer) populate(cfg artifactConfig) error {
	var errs *multierror.Error
	for _, sc := range cfg.scala {
		if sc != "2.12" && sc != "2.13" {
			errs = multierror.Append(errs, errorf("Scala %q: want 2.12 or 2.13", sc))
		}
	}
	for _, v := range cfg.spark {
		errs = multierror.Append(errs, s.addSpark(cfg, v))
	}
	for _, v := range cfg.rapids {
		errs = multierror.Append(errs, s.addRapids(cfg, v))
	}
	for _, c := range cfg.maven {
		coord, err := parseMavenCoord(c)
		if err != nil {
			errs = multierror.Append(errs, err)
			continue
		}
		errs = multierror.Append(errs, s.addJar(coord))
	}
	if cfg.poms != "" {
		errs = multierror.Append(errs, s.addPOMs(cfg.poms))
	}
	errs = multierror.Append(errs, s.addMavenMetadata())
	return errs.ErrorOrNil()
}

// addPOMs serves dir's POMs and a jar for each POM that is not a pom.
func (s *ArtifactServer) addPOMs(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".pom") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		s.files["maven2/"+rel] = data
		if strings.Contains(string(data), "<packaging>pom</packaging>") {
			return nil
		}
		// <group path>/<artifact>/<version>/<artifact>-<version>.pom
		parts := strings.Split(rel, "/")
		if len(parts) < 4 {
			return errorf("POM %s is not in a Maven layout", rel)
		}
		n := len(parts)
		c := mavenCoord{Group: strings.Join(parts[:n-3], "."), Artifact: parts[n-3], Version: parts[n-2]}
		if _, served := s.files["maven2/"+c.Path()]; served {
			return nil
		}
		return s.addJar(c)
	})
}

func (s *ArtifactServer) addSpark(cfg artifactConfig, version string) error {
	if !sparkVersionRE.MatchString(version) {
		return errorf("Spark version %q: want 3.x.y or 4.x.y", version)
	}
	var errs *multierror.Error
	served := 0
	for _, sc := range cfg.scala {
		if !sparkScalaSupported(version, sc) {
			continue
		}
		d := sparkDist{Version: version, Scala: sc}
		if cfg.sparkSize > 0 {
			errs = multierror.Append(errs, s.addLargeSpark(cfg, d))
			served++
			continue
		}
		data, err := d.tgz()
		if err != nil {
			errs = multierror.Append(errs, err)
			continue
		}
		p := "apache/" + d.Path()
		s.files[p] = data
		s.files[p+".sha512"] = []byte(sha512File(cfg.sha512Format, d.Base()+".tgz", data))
		s.sums[p+".sha512"] = p
		served++
	}
	if served == 0 && errs == nil {
		errs = multierror.Append(errs, errorf("Spark %s: Apache builds it for none of Scala %v (Spark 3 has 2.12 and 2.13, Spark 4 only 2.13)", version, cfg.scala))
	}
	return errs.ErrorOrNil()
}

func (s *ArtifactServer) addRapids(cfg artifactConfig, version string) error {
	if !rapidsVersionRE.MatchString(version) {
		return errorf("RAPIDS version %q: want YY.MM.P, e.g. 25.06.0", version)
	}
	var errs *multierror.Error
	for _, cl := range cfg.classifiers {
		if !classifierRE.MatchString(cl) {
			errs = multierror.Append(errs, errorf("RAPIDS jar classifier %q: want lower-case letters, digits and dashes, e.g. cuda12", cl))
			continue
		}
		for _, sc := range cfg.scala {
			if sc == "2.12" || sc == "2.13" {
				errs = multierror.Append(errs, s.addRapidsJar(rapidsCoord(sc, version, cl), cfg.rapidsShims(version, sc), cfg.rapidsSize))
			}
		}
	}
	return errs.ErrorOrNil()
}

// addLargeSpark serves a generated distribution of cfg.sparkSize from disk.
func (s *ArtifactServer) addLargeSpark(cfg artifactConfig, d sparkDist) error {
	f, err := largeSpark(d, cfg.sparkSize)
	if err != nil {
		return err
	}
	p := "apache/" + d.Path()
	s.disk[p] = f
	s.files[p+".sha512"] = []byte(sha512Line(cfg.sha512Format, d.Base()+".tgz", f.SHA512))
	s.sums[p+".sha512"] = p
	return nil
}

// addLargeJar serves small, a generated RAPIDS jar, grown to n bytes, from disk.
func (s *ArtifactServer) addLargeJar(c mavenCoord, small []byte, n int64) error {
	f, err := largeJar(c, small, n)
	if err != nil {
		return err
	}
	p := "maven2/" + c.Path()
	s.disk[p] = f
	s.files[p+".sha1"] = []byte(f.SHA1)
	s.sums[p+".sha1"] = p
	return nil
}

// addJar serves a small valid jar for coord with its Maven .sha1.
func (s *ArtifactServer) addJar(c mavenCoord) error {
	props := entry{Name: c.Artifact + "-version-info.properties", Body: "version=" + c.Version + "\nclassifier=" + c.Classifier + "\nnote=devenv test stand-in\n"}
	if strings.HasPrefix(c.Artifact, "rapids-4-spark_") {
		props.Name = "rapids4spark-version-info.properties"
	}
	data, err := jar(c.Group+":"+c.Artifact+" (devenv stand-in)", c.Version, props)
	if err != nil {
		return errorf("generating %s: %v", c.Path(), err)
	}
	p := "maven2/" + c.Path()
	s.files[p] = data
	s.files[p+".sha1"] = []byte(sha1File(data))
	s.sums[p+".sha1"] = p
	return nil
}

// addRapidsJar serves a RAPIDS Accelerator jar with the real shim layout
// and its Maven .sha1.
func (s *ArtifactServer) addRapidsJar(c mavenCoord, sparks []string, size int64) error {
	data, err := RapidsJar(c.Group+":"+c.Artifact+" (devenv stand-in)", c.Version, sparks)
	if err != nil {
		return errorf("generating %s: %v", c.Path(), err)
	}
	if size > 0 {
		return s.addLargeJar(c, data, size)
	}
	p := "maven2/" + c.Path()
	s.files[p] = data
	s.files[p+".sha1"] = []byte(sha1File(data))
	s.sums[p+".sha1"] = p
	return nil
}

// checksumFile is the content of the checksum file sumPath for data.
func (s *ArtifactServer) checksumFile(sumPath string, data []byte) []byte {
	if strings.HasSuffix(sumPath, ".sha1") {
		return []byte(sha1File(data))
	}
	// Keep the layout of the file being replaced.
	format := SHA512Coreutils
	if bytes.Contains(s.files[sumPath], []byte(": ")) {
		format = SHA512GPG
	}
	name := s.sums[sumPath][strings.LastIndex(s.sums[sumPath], "/")+1:]
	return []byte(sha512File(format, name, data))
}
