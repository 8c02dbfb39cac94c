package lock

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/maven"
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
	// POMs reads POMs for jar resolution (nil: HTTP through mirrors.maven).
	POMs maven.Source
	// Driver is the NVIDIA driver that versions devenv.yaml leaves unset are
	// resolved for (profiles.Request.Driver), and DriverRule where it came
	// from; the lock's notes say which rule chose each service's versions.
	Driver, DriverRule string
	// DataCenter: the driver drives data-center GPUs, so the CUDA family
	// floor applies (profiles.Request.DataCenter).
	DataCenter bool
	// Compose is the command's read of the project's compose files,
	// shared with the plan; nil reads them now.
	Compose *loader.Files
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
	out.Version = out.formatVersion()
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
	req, err := mirroredRequest(ctx, s, s.Request())
	if err != nil {
		return Service{}, serviceError(p, s, err)
	}
	req = profiles.DriverLimit{Driver: opts.Driver, Rule: opts.DriverRule, DataCenter: opts.DataCenter}.On(req)
	res, err := resolveKeeping(req, old, r, p.Profiles)
	if err != nil {
		return Service{}, serviceError(p, s, err)
	}
	*notes = append(*notes, mirrorNotes(s.Name, req, res)...)
	for _, n := range profiles.DriverRuleNotes(res) {
		*notes = append(*notes, fmt.Sprintf("service %q: %s", s.Name, n))
	}
	*notes = append(*notes, droppedPinNotes(s.Name, old, req, res)...)
	in, err := serviceInputs(ctx, p, s)
	if err != nil {
		return Service{}, err
	}
	ls := Service{Name: s.Name, Profile: res.Profile, Custom: res.Custom, InputHash: in.hash(), Inputs: &in, Requires: res.Requires, Versions: Versions{
		Spark: res.Spark, Scala: res.Scala, ScalaFull: res.ScalaFull, Java: res.Java, Python: res.Python,
		Rapids: res.Rapids, CUDA: res.CUDA, Release: res.Release, JarClassifier: res.JarClassifier,
		JupyterLab: JupyterLab(s, res, old),
	}, Deviations: res.Deviations}
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
	for _, a := range res.Artifacts {
		if strings.HasPrefix(a.Name, "jar:") {
			continue // a custom profile's jars: resolved with their dependencies below
		}
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
	jars, err := lockJars(ctx, s, res, in, old, fetch, opts, notes)
	if err != nil {
		return Service{}, serviceError(p, s, err)
	}
	ls.Artifacts = append(ls.Artifacts, jars...)
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
// devenv.yaml leaves open, except versions devenv.yaml pinned before and
// no longer does: removing a pin returns the default. If that combination
// no longer resolves, it resolves afresh.
func resolveKeeping(req profiles.Request, old *Service, r Resolver, custom map[string]*profiles.Custom) (profiles.Resolved, error) {
	if old != nil {
		if res, err := r.Resolve(withLocked(req, old, notKept(req, old)), custom); err == nil {
			return res, nil
		}
	}
	return r.Resolve(req, custom)
}

// notKept are the version keys the previous lock must not fill: those
// devenv.yaml pinned before and no longer does (removing a pin returns the
// default), and those prod states (prod's versions decide, not the previous
// lock's).
func notKept(req profiles.Request, old *Service) map[string]bool {
	out := map[string]bool{}
	for k := range droppedPins(req, old) {
		out[k] = true
	}
	if p := req.Prefer; p != nil {
		for k, v := range map[string]string{"spark": p.Spark, "rapids": p.Rapids, "scala": p.Scala, "java": p.Java, "python": p.Python} {
			if v != "" {
				out[k] = true
			}
		}
	}
	return out
}

// droppedPinNotes say, for each version pin devenv.yaml removed, what the
// version is now, and why when it stayed.
func droppedPinNotes(service string, old *Service, req profiles.Request, res profiles.Resolved) []string {
	if old == nil {
		return nil
	}
	got := map[string]string{"spark": res.Spark, "rapids": res.Rapids, "scala": res.Scala, "java": res.Java,
		"python": res.Python, "cuda": res.CUDA, "release": res.Release}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(droppedPins(req, old))) {
		was := old.Inputs.Versions[k]
		if got[k] == was || strings.HasPrefix(got[k], was+".") {
			out = append(out, fmt.Sprintf("service %q: %s is no longer pinned, and stays %s: it is what the other versions resolve to", service, k, got[k]))
			continue
		}
		out = append(out, fmt.Sprintf("service %q: %s is no longer pinned (was %s): %s is the default now", service, k, was, orUnset(got[k])))
	}
	return out
}

// droppedPins are the version keys the old entry's devenv.yaml pinned and
// req leaves open.
func droppedPins(req profiles.Request, old *Service) map[string]bool {
	if old.Inputs == nil {
		return nil
	}
	now := map[string]string{"spark": req.Spark, "rapids": req.Rapids, "scala": req.Scala, "java": req.Java,
		"python": req.Python, "cuda": req.CUDA, "release": req.Release}
	out := map[string]bool{}
	for k, v := range old.Inputs.Versions {
		if v != "" && now[k] == "" {
			out[k] = true
		}
	}
	return out
}

func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
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
