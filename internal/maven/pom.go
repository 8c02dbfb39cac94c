package maven

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	pm "deps.dev/util/maven"
	"deps.dev/util/semver"
)

// maxParents bounds a chain of parent POMs (real chains are under 10).
const maxParents = 32

// effective is what resolution needs of an artifact's effective POM.
type effective struct {
	deps       []pm.Dependency
	relocation *Coord
}

// poms reads and caches POMs and effective POMs. Raw POMs may be
// prefetched concurrently; everything else runs on the resolver's
// goroutine.
type poms struct {
	src   Source
	base  string // where POMs are read from (the mirror)
	jdk   string // for profile activation
	eff   map[string]*effective
	metas map[string][]string

	mu  sync.Mutex
	raw map[string]*rawPOM
	sem chan struct{} // bounds prefetches in flight
	wg  sync.WaitGroup
}

// rawPOM is one POM read (or being read) once.
type rawPOM struct {
	done chan struct{}
	pr   *pm.Project
	err  error
}

// prefetchers bounds concurrent POM downloads (Maven uses 5 threads).
const prefetchers = 8

func newPOMs(src Source, base, jdk string) *poms {
	return &poms{src: src, base: base, jdk: jdk, raw: map[string]*rawPOM{}, eff: map[string]*effective{}, metas: map[string][]string{},
		sem: make(chan struct{}, prefetchers)}
}

// read fetches and decodes one POM as published, once.
func (p *poms) read(ctx context.Context, c Coord) (*pm.Project, error) {
	r, owner := p.slot(c)
	if owner {
		r.pr, r.err = p.fetch(ctx, c)
		close(r.done)
	}
	select {
	case <-r.done:
		return r.pr, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// slot returns the POM's entry and whether the caller must fetch it.
func (p *poms) slot(c Coord) (*rawPOM, bool) {
	k := c.Group + ":" + c.Artifact + ":" + c.Version
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.raw[k]; ok {
		return r, false
	}
	r := &rawPOM{done: make(chan struct{})}
	p.raw[k] = r
	return r, true
}

// prefetch starts reading the POMs (and their parents) resolution will
// visit next, so a deep tree costs round trips per level, not per POM.
func (p *poms) prefetch(ctx context.Context, cs []Coord) {
	for _, c := range cs {
		r, owner := p.slot(c)
		if !owner {
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			select {
			case p.sem <- struct{}{}:
			case <-ctx.Done():
				r.err = ctx.Err()
				close(r.done)
				return
			}
			r.pr, r.err = p.fetch(ctx, c)
			<-p.sem
			close(r.done)
			if r.err == nil && r.pr.Parent.ArtifactID != "" {
				pa := r.pr.Parent
				p.prefetch(ctx, []Coord{{Group: string(pa.GroupID), Artifact: string(pa.ArtifactID), Version: string(pa.Version)}})
			}
		}()
	}
}

// wait lets the prefetches in flight finish.
func (p *poms) wait() { p.wg.Wait() }

func (p *poms) fetch(ctx context.Context, c Coord) (*pm.Project, error) {
	url := c.POMURL(p.base)
	data, err := p.src.Get(ctx, url)
	if err != nil {
		return nil, err
	}
	var pr pm.Project
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = charsetReader
	if err := dec.Decode(&pr); err != nil {
		return nil, fmt.Errorf("%s: not a POM: %w", url, err)
	}
	return &pr, nil
}

// merged is the POM with its parents merged in and its active profiles
// applied, not yet interpolated.
func (p *poms) merged(ctx context.Context, c Coord) (pm.Project, error) {
	pr, err := p.read(ctx, c)
	if err != nil {
		return pm.Project{}, err
	}
	out := *pr
	out.Dependencies = append([]pm.Dependency(nil), pr.Dependencies...)
	_ = out.MergeProfiles(p.jdk, pm.ActivationOS{Name: "linux", Family: "unix", Arch: "amd64"})
	seen := map[string]bool{c.Group + ":" + c.Artifact: true}
	parent := pr.Parent
	for i := 0; parent.ArtifactID != ""; i++ {
		pc := Coord{Group: string(parent.GroupID), Artifact: string(parent.ArtifactID), Version: string(parent.Version)}
		if i >= maxParents || seen[pc.Group+":"+pc.Artifact] {
			return pm.Project{}, fmt.Errorf("%s: its parent POMs form a cycle or a chain over %d long", c, maxParents)
		}
		seen[pc.Group+":"+pc.Artifact] = true
		pp, err := p.read(ctx, pc)
		if err != nil {
			return pm.Project{}, fmt.Errorf("parent POM of %s: %w", c, err)
		}
		cp := *pp
		cp.Dependencies = append([]pm.Dependency(nil), pp.Dependencies...)
		_ = cp.MergeProfiles(p.jdk, pm.ActivationOS{Name: "linux", Family: "unix", Arch: "amd64"})
		out.MergeParent(cp)
		parent = pp.Parent
	}
	return out, nil
}

// effective is the artifact's effective POM: parents, profiles,
// properties, and dependencyManagement with imported BOMs applied to its
// dependencies.
func (p *poms) effective(ctx context.Context, c Coord) (*effective, error) {
	k := c.Group + ":" + c.Artifact + ":" + c.Version
	if e, ok := p.eff[k]; ok {
		return e, nil
	}
	pr, err := p.merged(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := pr.Interpolate(); err != nil {
		return nil, fmt.Errorf("%s: %w", c, err)
	}
	var importErr error
	pr.ProcessDependencies(func(g, a, v pm.String) (pm.DependencyManagement, error) {
		bom, err := p.merged(ctx, Coord{Group: string(g), Artifact: string(a), Version: string(v)})
		if err == nil {
			err = bom.Interpolate()
		}
		if err != nil {
			importErr = errors.Join(importErr, fmt.Errorf("BOM %s:%s:%s imported by %s: %w", g, a, v, c, err))
			return pm.DependencyManagement{}, err
		}
		return bom.DependencyManagement, nil
	})
	if importErr != nil {
		return nil, importErr
	}
	e := &effective{deps: pr.Dependencies}
	if r := pr.DistributionManagement.Relocation; r.GroupID != "" || r.ArtifactID != "" || r.Version != "" {
		rc := c
		if r.GroupID != "" {
			rc.Group = string(r.GroupID)
		}
		if r.ArtifactID != "" {
			rc.Artifact = string(r.ArtifactID)
		}
		if r.Version != "" {
			rc.Version = string(r.Version)
		}
		if rc != c {
			e.relocation = &rc
		}
	}
	p.eff[k] = e
	return e, nil
}

// isRange reports whether a version is a Maven range ("[1.2,2.0)").
func isRange(v string) bool {
	return strings.HasPrefix(v, "[") || strings.HasPrefix(v, "(")
}

// pickRange chooses the highest released version in a range, from the
// artifact's maven-metadata.xml, as Maven does.
func (p *poms) pickRange(ctx context.Context, c Coord) (string, error) {
	con, err := semver.Maven.ParseConstraint(c.Version)
	if err != nil {
		return "", fmt.Errorf("%s: version range %q: %w", c.Group+":"+c.Artifact, c.Version, err)
	}
	versions, err := p.versions(ctx, c)
	if err != nil {
		return "", err
	}
	best := ""
	for _, v := range versions {
		if strings.HasSuffix(v, "-SNAPSHOT") || !con.Match(v) {
			continue
		}
		if best == "" || semver.Maven.Compare(v, best) > 0 {
			best = v
		}
	}
	if best == "" {
		return "", fmt.Errorf("%s:%s: no released version in the range %s", c.Group, c.Artifact, c.Version)
	}
	return best, nil
}

func (p *poms) versions(ctx context.Context, c Coord) ([]string, error) {
	k := c.Group + ":" + c.Artifact
	if v, ok := p.metas[k]; ok {
		return v, nil
	}
	url := strings.TrimRight(p.base, "/") + "/" + strings.ReplaceAll(c.Group, ".", "/") + "/" + c.Artifact + "/maven-metadata.xml"
	data, err := p.src.Get(ctx, url)
	if err != nil {
		return nil, err
	}
	var md pm.Metadata
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = charsetReader
	if err := dec.Decode(&md); err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	var out []string
	for _, v := range md.Versioning.Versions {
		out = append(out, string(v))
	}
	p.metas[k] = out
	return out, nil
}

// charsetReader reads the encodings POMs declare besides UTF-8: ISO-8859-1
// (and US-ASCII, a subset of both).
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return in, nil
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "windows-1252", "cp1252":
		data, err := io.ReadAll(in)
		if err != nil {
			return nil, err
		}
		runes := make([]rune, len(data))
		for i, b := range data {
			runes[i] = rune(b)
		}
		return strings.NewReader(string(runes)), nil
	}
	return nil, fmt.Errorf("POM encoding %q is not supported", label)
}
