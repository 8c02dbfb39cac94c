package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/profiles"
	"go.yaml.in/yaml/v3"
)

// MirrorOptions steer Mirror.
type MirrorOptions struct {
	Source  string // prod's description, inside the project
	Service string // the service to mirror into (default: the first spark-rapids service)
	Format  string // force the source's format
	Full    bool   // scan a whole event log
	// MaxWindowMB allows zstd event logs with a window over
	// mirror.DefaultMaxWindowMB (0: the default).
	MaxWindowMB int
	// AcceptDeviation mirrors even when the nearest stack the catalog
	// builds changes prod's Spark major.minor or Scala (else exit 5).
	AcceptDeviation bool
}

// MirrorResult is what Mirror recorded and locked.
type MirrorResult struct {
	Service string          `json:"service"`
	Source  string          `json:"source"` // project-relative, as written into devenv.yaml
	Profile *mirror.Profile `json:"profile"`
	Locked  *lock.Service   `json:"locked"`
	Notes   []string        `json:"notes,omitempty"` // what the lock took from prod
	// Deviations: where the locked versions differ from prod's, and why
	// (also in devenv.lock).
	Deviations []profiles.Deviation `json:"deviations"`
}

// Import reads a production description into one normalized profile; it
// needs no project (devenv mirror --print).
func Import(ctx context.Context, source string, o MirrorOptions) (*mirror.Profile, error) {
	abs, err := filepath.Abs(source)
	if err != nil {
		return nil, err
	}
	prof, err := mirror.ImportContext(ctx, abs, mirror.Options{Format: o.Format, Full: o.Full, MaxWindowMB: o.MaxWindowMB})
	if err != nil {
		return nil, err
	}
	prof.Classify(doctor.Classify) // the signature table of logs --diagnose
	return prof, nil
}

// Mirror makes a service use prod: `mirror: SOURCE` is recorded in
// devenv.yaml (comments kept) and the project relocked; both files are
// written only when the relock succeeded, so a failure changes nothing.
func (p *Project) Mirror(ctx context.Context, o MirrorOptions) (*MirrorResult, error) {
	src, err := filepath.Abs(o.Source)
	if err != nil {
		return nil, err
	}
	prof, err := Import(ctx, src, o)
	if err != nil {
		return nil, err
	}
	svc, err := p.mirrorTarget(o.Service)
	if err != nil {
		return nil, err
	}
	rel, ok := projpath.Inside(p.Spec.Dir, src)
	if !ok {
		return nil, exitcode.Newf(exitcode.Usage, "%s is outside the project %s: copy it into the project (for example prod/), check it holds no secrets you would not commit, and run devenv mirror on the copy", src, p.Spec.Dir)
	}
	next, data, err := recordMirror(p.Spec, svc.Name, rel, o.Format)
	if err != nil {
		return nil, err
	}
	prev, _ := p.ReadLock()
	lf, err := p.generate(ctx, next, prev, LockOptions{})
	if err != nil {
		return nil, fmt.Errorf("devenv.yaml and devenv.lock were left as they were: %w", err)
	}
	locked := lf.Service(svc.Name)
	devs := []profiles.Deviation{}
	if locked != nil && locked.Deviations != nil {
		devs = locked.Deviations
	}
	if major := lock.MajorDeviations(devs); len(major) > 0 && !o.AcceptDeviation {
		all := make([]string, len(devs))
		for i, d := range devs {
			all[i] = d.String()
		}
		return nil, exitcode.Newf(exitcode.Drift, "devenv.yaml and devenv.lock were left as they were: the nearest stack devenv can build changes prod's %s:\n  %s\nrun devenv mirror %s --accept-deviation to mirror it anyway, or pin the versions in devenv.yaml",
			strings.Join(major, " and "), strings.Join(all, "\n  "), o.Source)
	}
	if err := p.commit(next, data, lf); err != nil {
		return nil, err
	}
	return &MirrorResult{Service: svc.Name, Source: rel, Profile: prof, Locked: locked, Notes: lf.Notes, Deviations: devs}, nil
}

// commit writes the edited devenv.yaml and its lock, and makes the
// project the edited one.
func (p *Project) commit(next *spec.Project, data []byte, lf *lock.File) error {
	st, err := os.Stat(p.Spec.File)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(p.Spec.File, data, st.Mode().Perm()); err != nil {
		return err
	}
	if _, err := lock.Write(p.LockPath(), lf); err != nil {
		return err
	}
	p.Spec = next
	return nil
}

// recordMirror returns devenv.yaml with `mirror: rel` set in the service
// (and `mirror_format:` when the format was forced, so lock, up, diff and
// repro read the source the same way), and the project it loads as. Only
// those keys' text changes: comments, blank lines and the rest stay byte
// for byte (a file whose layout the text edit cannot follow is written out
// again whole, its comments kept).
func recordMirror(p *spec.Project, service, rel, format string) (*spec.Project, []byte, error) {
	whole, err := mirrorNodeEdit(p, service, rel, format)
	if err != nil {
		return nil, nil, err
	}
	data := whole
	if edited, ok := mirrorTextEdit(p.Raw, service, rel, format); ok && sameYAML(edited, whole) {
		data = edited
	}
	next, err := spec.Parse(p.File, data, p.Dir)
	if err != nil {
		return nil, nil, fmt.Errorf("devenv.yaml with the mirror recorded would not load, so it was left as it was: %w", err)
	}
	return next, data, nil
}

// serviceNode is the service's mapping in a parsed devenv.yaml.
func serviceNode(raw []byte, service string) (*yaml.Node, *yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil || len(doc.Content) == 0 {
		return nil, nil, fmt.Errorf("read devenv.yaml: %w", err)
	}
	svc := mapValue(mapValue(doc.Content[0], "services"), service)
	if svc == nil || svc.Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("service %q not found in devenv.yaml", service)
	}
	return &doc, svc, nil
}

// mirrorNodeEdit is devenv.yaml with the keys set in its parsed document,
// encoded again whole.
func mirrorNodeEdit(p *spec.Project, service, rel, format string) ([]byte, error) {
	doc, svc, err := serviceNode(p.Raw, service)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.File, err)
	}
	setScalar(svc, "mirror", rel)
	if format != "" {
		setScalar(svc, "mirror_format", format)
	} else {
		deleteKey(svc, "mirror_format") // detected again from the new source
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// mirrorTextEdit is the same change made in devenv.yaml's own text, one
// key at a time (each edit reads the positions of the text before it).
func mirrorTextEdit(raw []byte, service, rel, format string) ([]byte, bool) {
	edits := []func(*textEdit, *yaml.Node){func(e *textEdit, svc *yaml.Node) { e.set(svc, "mirror", rel) }}
	if format != "" {
		edits = append(edits, func(e *textEdit, svc *yaml.Node) { e.set(svc, "mirror_format", format) })
	} else {
		edits = append(edits, func(e *textEdit, svc *yaml.Node) { e.remove(svc, "mirror_format") })
	}
	for _, edit := range edits {
		_, svc, err := serviceNode(raw, service)
		if err != nil {
			return nil, false
		}
		e := newTextEdit(raw)
		if edit(e, svc); !e.ok {
			return nil, false
		}
		raw = e.bytes()
	}
	return raw, true
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func deleteKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func setScalar(m *yaml.Node, key, value string) {
	if v := mapValue(m, key); v != nil {
		v.Kind, v.Tag, v.Value, v.Style = yaml.ScalarNode, "!!str", value, 0
		return
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value})
}
