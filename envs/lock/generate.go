package lock

import (
	"context"
	"errors"
	"fmt"
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
	// Local reads image IDs from this machine's engine, for compose images
	// no registry has; nil: such images cannot be locked.
	Local LocalImages
	// Driver is the NVIDIA driver that versions devenv.yaml leaves unset are
	// resolved for (profiles.Request.Driver), and DriverRule where it came
	// from; the lock's notes say which rule chose each service's versions.
	Driver, DriverRule string
}

// Generate resolves every service of p and pins what the resolution names.
// Versions, digests and checksums already in prev are kept while they still
// satisfy devenv.yaml, so relocking after an unrelated edit changes nothing
// else; Upgrade drops them. Every problem is reported at once.
func Generate(ctx context.Context, p *spec.Project, prev *File, r Resolver, pin Pinner, fetch Fetcher, opts Options) (*File, error) {
	out := &File{Version: SchemaVersion, Project: p.Name}
	var errs *multierror.Error
	for _, s := range p.Services {
		old := previous(prev, s.Name, opts)
		ls, err := lockService(ctx, p, s, old, r, pin, fetch, opts, &out.Notes)
		if err != nil {
			errs = multierror.Append(errs, err)
			continue
		}
		out.Services = append(out.Services, ls)
	}
	composed, err := lockCompose(ctx, p, prev, pin, opts.Mirrors, opts, &out.Notes)
	if err != nil {
		errs = multierror.Append(errs, err)
	}
	out.Services = append(out.Services, composed...)
	if err := errs.ErrorOrNil(); err != nil {
		return nil, err
	}
	sort.Slice(out.Services, func(i, j int) bool { return out.Services[i].Name < out.Services[j].Name })
	var names, hashes []string
	for _, s := range out.Services {
		names, hashes = append(names, s.Name), append(hashes, s.InputHash)
	}
	out.InputHash = summaryHash(p.Name, names, hashes)
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

func lockService(ctx context.Context, p *spec.Project, s *spec.Service, old *Service, r Resolver, pin Pinner, fetch Fetcher, opts Options, notes *[]string) (Service, error) {
	m := opts.Mirrors
	req, mnotes, err := mirroredRequest(s, s.Request(), r, p.Profiles)
	if err != nil {
		return Service{}, serviceError(p, s, err)
	}
	*notes = append(*notes, mnotes...)
	req.Driver, req.DriverRule = opts.Driver, opts.DriverRule
	res, err := resolveKeeping(req, old, r, p.Profiles)
	if err != nil {
		return Service{}, serviceError(p, s, err)
	}
	for _, n := range profiles.DriverRuleNotes(res) {
		*notes = append(*notes, fmt.Sprintf("service %q: %s", s.Name, n))
	}
	in, err := serviceInputs(p, s)
	if err != nil {
		return Service{}, err
	}
	ls := Service{Name: s.Name, Profile: res.Profile, Custom: res.Custom, InputHash: in.hash(), Inputs: &in, Requires: res.Requires, Versions: Versions{
		Spark: res.Spark, Scala: res.Scala, ScalaFull: res.ScalaFull, Java: res.Java, Python: res.Python,
		Rapids: res.Rapids, CUDA: res.CUDA, Release: res.Release, JarClassifier: res.JarClassifier,
		JupyterLab: JupyterLab(s, res, old),
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
		la, path, err := lockArtifact(ctx, a, old, fetch, m)
		if err != nil {
			return Service{}, fmt.Errorf("service %q: %w", s.Name, acceleratorFetchError(res, a, m, err))
		}
		if a.Name == profiles.AcceleratorArtifact {
			if err := checkAcceleratorJar(ctx, res, la, a, path, old, r, fetch, m); err != nil {
				return Service{}, serviceError(p, s, err)
			}
		}
		ls.Artifacts = append(ls.Artifacts, la)
	}
	return ls, nil
}

// JupyterLab is the JupyterLab release a spark-rapids service with Jupyter
// installs: the one locked before, else the newest its Python supports.
func JupyterLab(s *spec.Service, res profiles.Resolved, old *Service) string {
	if res.Profile != profiles.SparkRapids || (s.Jupyter != nil && !*s.Jupyter) {
		return ""
	}
	if old != nil && old.Versions.JupyterLab != "" && old.Versions.Python == res.Python {
		return old.Versions.JupyterLab
	}
	return profiles.JupyterLabVersion(res)
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

// lockArtifact pins an artifact, keeping the previous lock's entry for the
// same URL; path is the downloaded file, "" when the entry was kept.
func lockArtifact(ctx context.Context, a profiles.Artifact, old *Service, fetch Fetcher, m sources.Mirrors) (Artifact, string, error) {
	if old != nil {
		for _, o := range old.Artifacts {
			if o.URL == a.URL && o.File == a.File {
				return o, "", nil
			}
		}
	}
	sum, path, err := fetch.Verified(ctx, m.URL(a.URL), m.URL(a.ChecksumURL), a.ChecksumAlgo)
	if err != nil {
		return Artifact{}, "", fmt.Errorf("artifact %s: %w", a.Name, err)
	}
	return Artifact{Name: a.Name, URL: a.URL, File: a.File, SHA256: sum}, path, nil
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
