package lock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/hashicorp/go-multierror"
)

// Resolver turns a service's request into explicit versions (profiles.Catalog).
type Resolver interface {
	Resolve(req profiles.Request, custom map[string]*profiles.Custom) (profiles.Resolved, error)
}

// Pinner returns the manifest digest a registry serves for an image reference.
type Pinner interface {
	Digest(ctx context.Context, ref string) (string, error)
}

// Fetcher downloads an artifact, checks it against the publisher's checksum
// and returns its sha256 (fetch.Cache).
type Fetcher interface {
	Verified(ctx context.Context, url, checksumURL, algo string) (sha256hex, path string, err error)
}

// Options steer Generate.
type Options struct {
	Upgrade  bool     // move to the newest compatible versions
	Services []string // with Upgrade: only these services (empty: all)
	Mirrors  sources.Mirrors
}

// Generate resolves every service of p and pins what the resolution names.
// Versions, digests and checksums already in prev are kept while they still
// satisfy devenv.yaml, so relocking after an unrelated edit changes nothing
// else; Upgrade drops them. Every problem is reported at once.
func Generate(ctx context.Context, p *spec.Project, prev *File, r Resolver, pin Pinner, fetch Fetcher, opts Options) (*File, error) {
	hash, err := InputHash(p)
	if err != nil {
		return nil, err
	}
	out := &File{Version: SchemaVersion, Project: p.Name, InputHash: hash}
	var errs *multierror.Error
	for _, s := range p.Services {
		old := previous(prev, s.Name, opts)
		ls, err := lockService(ctx, p, s, old, r, pin, fetch, opts.Mirrors, &out.Notes)
		if err != nil {
			errs = multierror.Append(errs, err)
			continue
		}
		out.Services = append(out.Services, ls)
	}
	composed, err := lockCompose(ctx, p, prev, pin, opts.Mirrors, opts)
	if err != nil {
		errs = multierror.Append(errs, err)
	}
	out.Services = append(out.Services, composed...)
	if err := errs.ErrorOrNil(); err != nil {
		return nil, err
	}
	sort.Slice(out.Services, func(i, j int) bool { return out.Services[i].Name < out.Services[j].Name })
	return out, nil
}

func previous(prev *File, name string, opts Options) *Service {
	if prev == nil {
		return nil
	}
	if opts.Upgrade {
		if len(opts.Services) == 0 {
			return nil
		}
		for _, n := range opts.Services {
			if n == name {
				return nil
			}
		}
	}
	return prev.Service(name)
}

func lockService(ctx context.Context, p *spec.Project, s *spec.Service, old *Service, r Resolver, pin Pinner, fetch Fetcher, m sources.Mirrors, notes *[]string) (Service, error) {
	req, mnotes, err := mirroredRequest(s, s.Request(), r, p.Profiles)
	if err != nil {
		return Service{}, serviceError(p, s, err)
	}
	*notes = append(*notes, mnotes...)
	res, err := resolveKeeping(req, old, r, p.Profiles)
	if err != nil {
		return Service{}, serviceError(p, s, err)
	}
	inHash, err := ServiceInputHash(p, s)
	if err != nil {
		return Service{}, err
	}
	ls := Service{Name: s.Name, Profile: res.Profile, Custom: res.Custom, InputHash: inHash, Requires: res.Requires, Versions: Versions{
		Spark: res.Spark, Scala: res.Scala, ScalaFull: res.ScalaFull, Java: res.Java, Python: res.Python,
		Rapids: res.Rapids, CUDA: res.CUDA, Release: res.Release, JarClassifier: res.JarClassifier,
	}}
	base := res.BaseImage
	if res.Profile == profiles.Image {
		base = s.Image
	}
	if base != "" {
		img, err := pinImage(ctx, base, old, pin, m)
		if err != nil {
			return Service{}, fmt.Errorf("service %q: %w", s.Name, err)
		}
		ls.Base = img
	}
	arts, err := userJars(s)
	if err != nil {
		return Service{}, serviceError(p, s, err)
	}
	for _, a := range append(res.Artifacts, arts...) {
		la, err := lockArtifact(ctx, a, old, fetch, m)
		if err != nil {
			return Service{}, fmt.Errorf("service %q: %w", s.Name, err)
		}
		ls.Artifacts = append(ls.Artifacts, la)
	}
	return ls, nil
}

// resolveKeeping resolves with the previously locked versions filling what
// devenv.yaml leaves open; if that combination no longer resolves, it
// resolves afresh.
func resolveKeeping(req profiles.Request, old *Service, r Resolver, custom map[string]*profiles.Custom) (profiles.Resolved, error) {
	if old != nil {
		keep := req
		fill(&keep.Spark, old.Versions.Spark)
		fill(&keep.Rapids, old.Versions.Rapids)
		fill(&keep.Scala, old.Versions.Scala)
		fill(&keep.Java, old.Versions.Java)
		fill(&keep.Python, old.Versions.Python)
		fill(&keep.CUDA, old.Versions.CUDA)
		fill(&keep.Release, old.Versions.Release)
		if res, err := r.Resolve(keep, custom); err == nil {
			return res, nil
		}
	}
	return r.Resolve(req, custom)
}

func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

func userJars(s *spec.Service) ([]profiles.Artifact, error) {
	var out []profiles.Artifact
	for _, c := range s.Jars {
		a, err := profiles.MavenJar(c)
		if err != nil {
			return nil, &profiles.ResolveError{Field: "jars", Msg: err.Error(), Hint: "write Maven coordinates as group:artifact:version"}
		}
		out = append(out, a)
	}
	return out, nil
}

func pinImage(ctx context.Context, ref string, old *Service, pin Pinner, m sources.Mirrors) (*Image, error) {
	if old != nil && old.Base != nil && old.Base.Ref == ref {
		return &Image{Ref: ref, Digest: old.Base.Digest}, nil
	}
	d, err := pin.Digest(ctx, m.Image(ref))
	if err != nil {
		return nil, fmt.Errorf("pin %s: %w", ref, err)
	}
	return &Image{Ref: ref, Digest: d}, nil
}

func lockArtifact(ctx context.Context, a profiles.Artifact, old *Service, fetch Fetcher, m sources.Mirrors) (Artifact, error) {
	if old != nil {
		for _, o := range old.Artifacts {
			if o.URL == a.URL && o.File == a.File {
				return o, nil
			}
		}
	}
	sum, _, err := fetch.Verified(ctx, m.URL(a.URL), m.URL(a.ChecksumURL), a.ChecksumAlgo)
	if err != nil {
		return Artifact{}, fmt.Errorf("artifact %s: %w", a.Name, err)
	}
	return Artifact{Name: a.Name, URL: a.URL, File: a.File, SHA256: sum}, nil
}

// serviceError places a resolution error at the service's line in devenv.yaml.
func serviceError(p *spec.Project, s *spec.Service, err error) error {
	var re *profiles.ResolveError
	if !errors.As(err, &re) {
		return fmt.Errorf("service %q: %w", s.Name, err)
	}
	file, pos := p.PosOf(s.Name, re.Field)
	return &spec.Error{File: file, Pos: pos, Msg: fmt.Sprintf("service %q: %s", s.Name, re.Msg), Hint: re.Hint}
}

// InputHash is the sha256 of devenv.yaml and of every file it names that
// changes what the lock holds (custom profile files, mirrored production
// descriptions), with project-relative names so it is the same on every clone.
func InputHash(p *spec.Project) (string, error) {
	h := sha256.New()
	writePart(h, "devenv.yaml", p.Raw)
	files := append(append([]string(nil), p.ProfileFiles...), p.Compose...)
	for _, s := range p.Services {
		if s.Mirror != "" {
			files = append(files, s.Mirror)
		}
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("read %s for the lock's input hash: %w", f, err)
		}
		rel, err := filepath.Rel(p.Dir, f)
		if err != nil {
			rel = f
		}
		writePart(h, filepath.ToSlash(rel), data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func writePart(h interface{ Write([]byte) (int, error) }, name string, data []byte) {
	fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
	_, _ = h.Write(data) // a hash.Hash never returns an error
}

// ServiceInputHash is the sha256 of what one service's lock entry is
// resolved from: its profile and versions, image, jars, its custom profile
// and the content of the production description it mirrors. Ports, env and
// the like do not change what is locked and are not part of it.
func ServiceInputHash(p *spec.Project, s *spec.Service) (string, error) {
	in := struct {
		Request profiles.Request
		Image   string
		Jars    []string
		Custom  *profiles.Custom
		Mirror  []byte
	}{Request: s.Request(), Image: s.Image, Jars: s.Jars, Custom: p.Profiles[s.Profile]}
	if s.Mirror != "" {
		data, err := os.ReadFile(s.Mirror)
		if err != nil {
			return "", fmt.Errorf("service %q: read its mirror: %w", s.Name, err)
		}
		in.Mirror = data
	}
	b, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
