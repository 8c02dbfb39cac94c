// Package lock is devenv.lock: the exact environment a devenv.yaml resolved
// to (versions, base images by digest, artifacts by URL and sha256, what the
// host must provide), written deterministically and only when it changes.
package lock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/lazy"
	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/hashicorp/go-multierror"
)

// FileName is the lock's name in the project directory.
const FileName = "devenv.lock"

// SchemaVersion is the newest lock format this devenv reads and writes.
// Version 2 added build_bases (the images compose build: services build
// FROM); a lock that has none is written as version 1, which devenvs
// before it read too.
const SchemaVersion = 2

// ErrNoLock means the project has no devenv.lock yet.
var ErrNoLock = errors.New("no devenv.lock: run `devenv lock` first")

// File is the whole lock.
type File struct {
	Version   int       `json:"version"`
	Project   string    `json:"project"`
	InputHash string    `json:"input_hash"` // sha256 of the project name and every service's input_hash
	Services  []Service `json:"services"`   // sorted by name
	// Notes say what resolution chose on the user's behalf (not stored).
	Notes []string `json:"-"`
}

// Service is one locked service.
type Service struct {
	Name      string   `json:"name"`
	Profile   string   `json:"profile"`
	Custom    string   `json:"custom,omitempty"`
	InputHash string   `json:"input_hash,omitempty"` // sha256 of Inputs
	Inputs    *Inputs  `json:"inputs,omitempty"`     // what this entry was resolved from
	Versions  Versions `json:"versions"`
	Base      *Image   `json:"base,omitempty"`
	// BuildBases pin the images a compose build: service's Dockerfile
	// builds FROM, keyed by the image as the build resolves it (ARGs
	// expanded), in the Dockerfile's order.
	BuildBases []Image               `json:"build_bases,omitempty"`
	Artifacts  []Artifact            `json:"artifacts,omitempty"`
	Requires   profiles.Requirements `json:"requires"`
	// Deviations: where a mirroring service's versions differ from prod's, and why.
	Deviations []profiles.Deviation `json:"deviations,omitempty"`
}

// Versions are the resolved versions, every one explicit.
type Versions struct {
	Spark         string `json:"spark,omitempty"`
	Scala         string `json:"scala,omitempty"`
	ScalaFull     string `json:"scala_full,omitempty"`
	Java          string `json:"java,omitempty"`
	Python        string `json:"python,omitempty"`
	Rapids        string `json:"rapids,omitempty"`
	CUDA          string `json:"cuda,omitempty"`
	Release       string `json:"release,omitempty"`
	JarClassifier string `json:"jar_classifier,omitempty"`
	JupyterLab    string `json:"jupyterlab,omitempty"` // spark-rapids with jupyter: the JupyterLab release installed
}

// Image is a base image pinned by digest.
type Image struct {
	Ref    string `json:"ref"`    // canonical reference, e.g. nvcr.io/nvidia/cuda:12.9.1-runtime-ubuntu22.04
	Digest string `json:"digest"` // sha256:...
	// Local marks an image no registry has (a compose service's local
	// build, or pull_policy: never): Digest is then its image ID on the
	// machine that locked it.
	Local bool `json:"local,omitempty"`
}

// Pinned is "ref@digest" (a digest already in ref replaced), or the image
// ID of a local image.
func (i Image) Pinned() string {
	if i.Local {
		return i.Digest
	}
	name, _, _ := strings.Cut(i.Ref, "@")
	return name + "@" + i.Digest
}

// formatVersion is the oldest lock version that holds f.
func (f *File) formatVersion() int {
	for _, s := range f.Services {
		if len(s.BuildBases) > 0 || s.composeBuild() {
			return 2
		}
	}
	return 1
}

// composeBuild reports whether s locks a compose build: service (by the
// images it builds FROM, possibly none: FROM scratch), which only
// version 2 locks hold.
func (s *Service) composeBuild() bool {
	return s.Profile == ComposeProfile && s.Inputs != nil && s.Inputs.Image == ""
}

// Artifact is a downloaded file with its verified sha256.
type Artifact struct {
	Name   string `json:"name"`
	URL    string `json:"url"` // canonical upstream URL; fetched through mirrors
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// Service returns the locked service by name, or nil.
func (f *File) Service(name string) *Service {
	for i := range f.Services {
		if f.Services[i].Name == name {
			return &f.Services[i]
		}
	}
	return nil
}

// Marshal renders the lock byte-for-byte deterministically.
func Marshal(f *File) ([]byte, error) {
	c := *f
	c.Services = append([]Service(nil), f.Services...)
	sort.Slice(c.Services, func(i, j int) bool { return c.Services[i].Name < c.Services[j].Name })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write stores the lock at path with a temp file and a rename, and only when
// its bytes change. It reports whether it wrote.
func Write(path string, f *File) (bool, error) {
	data, err := Marshal(f)
	if err != nil {
		return false, err
	}
	wrote, err := atomicfile.WriteIfChanged(path, data, 0o644)
	if err == nil {
		// what a lock killed before its rename left beside the file
		atomicfile.SweepTemps(filepath.Dir(path), filepath.Base(path))
	}
	return wrote, err
}

// Read loads and checks a lock. A missing file is ErrNoLock; a lock from a
// newer devenv or one edited into an invalid state is refused with what is
// wrong and how to recover.
func Read(path string) (*File, error) {
	// through the project's rooted handle: a lock linked from outside the
	// project is refused like any other project file that links out
	data, err := safefile.ReadInDir(filepath.Dir(path), path, safefile.MaxLock)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoLock
	}
	if err != nil {
		return nil, err
	}
	return Parse(filepath.Base(path), data)
}

// Parse decodes lock bytes named name (for messages) and validates them.
func Parse(name string, data []byte) (*File, error) {
	var probe struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, invalid(name, "it is not valid JSON: %v", err)
	}
	if probe.Version > SchemaVersion {
		return nil, fmt.Errorf("%s: written by a newer devenv (lock version %d, this devenv reads versions 1 to %d): upgrade devenv", name, probe.Version, SchemaVersion)
	}
	dups, err := duplicateKeys(data)
	if err != nil {
		return nil, invalid(name, "it is not valid JSON: %v", err)
	}
	if len(dups) > 0 {
		return nil, invalid(name, "key %s is given twice", strings.Join(dups, ", key "))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, invalid(name, "%v", err)
	}
	if err := f.validate(); err != nil {
		return nil, invalid(name, "%v", err)
	}
	return &f, nil
}

// InvalidError says a lock cannot be read at all (not JSON, a key given
// twice, a field of the wrong form): `devenv lock` writes it again from
// devenv.yaml.
type InvalidError struct {
	Name, Problem string
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("%s is not a valid lock (%s): do not edit it by hand; run `devenv lock` to write it again", e.Name, e.Problem)
}

func invalid(name, format string, args ...any) error {
	return &InvalidError{Name: name, Problem: fmt.Sprintf(format, args...)}
}

var (
	digestRe = lazy.Regexp(`^sha256:[0-9a-f]{64}$`)
	sha256Re = lazy.Regexp(`^[0-9a-f]{64}$`)
)

func (f *File) validate() error {
	var errs *multierror.Error
	if f.Version < f.formatVersion() || f.Version > SchemaVersion {
		errs = multierror.Append(errs, fmt.Errorf("version %d, want %d to %d", f.Version, f.formatVersion(), SchemaVersion))
	}
	if !sha256Re().MatchString(f.InputHash) {
		errs = multierror.Append(errs, fmt.Errorf("input_hash %q is not a sha256", f.InputHash))
	}
	seen := map[string]bool{}
	for _, s := range f.Services {
		if s.Name == "" || seen[s.Name] {
			errs = multierror.Append(errs, fmt.Errorf("service name %q empty or repeated", s.Name))
		}
		seen[s.Name] = true
		if s.Base != nil && (s.Base.Ref == "" || !digestRe().MatchString(s.Base.Digest)) {
			errs = multierror.Append(errs, fmt.Errorf("service %s: base %q@%q is not pinned by a sha256 digest", s.Name, s.Base.Ref, s.Base.Digest))
		}
		for _, b := range s.BuildBases {
			if b.Ref == "" || !digestRe().MatchString(b.Digest) {
				errs = multierror.Append(errs, fmt.Errorf("service %s: build base %q@%q is not pinned by a sha256 digest", s.Name, b.Ref, b.Digest))
			}
		}
		for _, a := range s.Artifacts {
			if a.URL == "" || a.File == "" || !sha256Re().MatchString(a.SHA256) {
				errs = multierror.Append(errs, fmt.Errorf("service %s: artifact %q needs url, file and a sha256", s.Name, a.Name))
			}
		}
	}
	if errs == nil {
		return nil
	}
	errs.ErrorFormat = func(es []error) string {
		var b bytes.Buffer
		for i, e := range es {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(e.Error())
		}
		return b.String()
	}
	return errs
}
