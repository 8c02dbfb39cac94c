package lock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/profiles"
)

// Inputs are what one service's lock entry was resolved from: only what
// decides versions, pinned images, artifacts and image builds. Ports, env,
// conf, volumes, comments and the like are not inputs, so editing them never
// makes the lock stale. They are kept in the lock (nothing secret is in
// them) so that a stale lock can say what changed.
type Inputs struct {
	Profile  string            `json:"profile,omitempty"`
	Versions map[string]string `json:"versions,omitempty"` // as devenv.yaml asks, e.g. spark: "3.5"
	Image    string            `json:"image,omitempty"`    // profile image, or a compose service's image
	Jars     []string          `json:"jars,omitempty"`
	Custom   string            `json:"custom,omitempty"` // sha256 of the custom profile's parts that are inputs
	Mirror   string            `json:"mirror,omitempty"` // sha256 of the production description (mirror:), a file or an event log directory
	// MirrorFormat is mirror_format:, the source's forced format.
	MirrorFormat string `json:"mirror_format,omitempty"`
	// From are the images a compose build: service's Dockerfile builds
	// FROM (build args and target applied), in its order.
	From []string `json:"from,omitempty"`
}

// serviceInputs gathers a devenv.yaml service's inputs.
func serviceInputs(ctx context.Context, p *spec.Project, s *spec.Service) (Inputs, error) {
	r := s.Request()
	in := Inputs{Profile: s.Profile, Image: s.Image, Jars: s.Jars, Versions: map[string]string{}}
	for k, v := range map[string]string{"spark": r.Spark, "rapids": r.Rapids, "scala": r.Scala, "java": r.Java,
		"python": r.Python, "cuda": r.CUDA, "release": r.Release} {
		if v != "" {
			in.Versions[k] = v
		}
	}
	if len(in.Versions) == 0 {
		in.Versions = nil
	}
	if c := p.Profiles[s.Profile]; c != nil {
		in.Custom = customHash(c)
	}
	if s.Mirror != "" {
		sum, err := mirror.SourceDigestContext(ctx, s.Mirror)
		if err != nil {
			return in, fmt.Errorf("service %q: read its mirror: %w", s.Name, err)
		}
		in.Mirror, in.MirrorFormat = sum, s.MirrorFormat
	}
	return in, nil
}

// customHash covers what a custom profile changes in resolution and in the
// image build; its env and conf reach only the container and are left out.
func customHash(c *profiles.Custom) string {
	b, _ := json.Marshal(struct {
		Extends, BaseImage string
		Apt, Pip, Jars     []string
		Defaults           profiles.Request
	}{c.Extends, c.BaseImage, c.Apt, c.Pip, c.Jars, c.Defaults})
	return sha(b)
}

// hash is the sha256 of the inputs, stored as a service's input_hash.
func (in Inputs) hash() string {
	b, _ := json.Marshal(in)
	return sha(b)
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ServiceInputHash is the sha256 of a service's Inputs.
func ServiceInputHash(p *spec.Project, s *spec.Service) (string, error) {
	in, err := serviceInputs(context.Background(), p, s)
	if err != nil {
		return "", err
	}
	return in.hash(), nil
}

// wanted is one service the lock must hold, with its inputs now.
type wanted struct {
	name    string
	compose bool
	build   *buildSource // a compose service that builds: its Dockerfile
	inputs  Inputs
}

// wantedServices lists what devenv.yaml and its compose files ask the lock
// to hold: every devenv service, and every compose service (by its image,
// or by the images its Dockerfile builds FROM), of every compose profile
// as lockCompose pins them: which profiles are active does not change
// what the lock must hold. The compose files are files' (nil: read now).
func wantedServices(ctx context.Context, p *spec.Project, files *loader.Files) ([]wanted, error) {
	var out []wanted
	for _, s := range p.Services {
		in, err := serviceInputs(ctx, p, s)
		if err != nil {
			return nil, err
		}
		out = append(out, wanted{name: s.Name, inputs: in})
	}
	if len(p.Compose) == 0 {
		return out, nil
	}
	svcs, err := files.For(p.Compose, p.Dir, p.Name).Services(ctx, []string{"*"})
	if err != nil {
		return nil, err
	}
	for _, cs := range svcs {
		switch {
		case cs.Build != nil:
			src, err := readBuild(p, cs)
			if err != nil {
				return nil, err
			}
			out = append(out, wanted{name: cs.Name, compose: true, build: &src, inputs: Inputs{From: src.images()}})
		case cs.Image != "":
			out = append(out, wanted{name: cs.Name, compose: true, inputs: Inputs{Image: cs.Image}})
		}
	}
	return out, nil
}

// summaryHash is the lock's input_hash: the project name and each service's
// input hash, so that it changes exactly when some service's inputs do.
func summaryHash(project string, names, hashes []string) string {
	idx := make([]int, len(names))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return names[idx[a]] < names[idx[b]] })
	var b strings.Builder
	fmt.Fprintf(&b, "project\x00%s\x00", project)
	for _, i := range idx {
		fmt.Fprintf(&b, "%s\x00%s\x00", names[i], hashes[i])
	}
	return sha([]byte(b.String()))
}

func summaryOf(project string, w []wanted) string {
	var names, hashes []string
	for _, s := range w {
		names, hashes = append(names, s.name), append(hashes, s.inputs.hash())
	}
	return summaryHash(project, names, hashes)
}

// InputHash is the input_hash a lock of p holds when it is fresh.
func InputHash(p *spec.Project) (string, error) {
	w, err := wantedServices(context.Background(), p, nil)
	if err != nil {
		return "", err
	}
	return summaryOf(p.Name, w), nil
}

// inputChanges says, field by field, how a service's inputs changed since
// they were locked.
func inputChanges(service string, was, now Inputs) []string {
	var out []string
	say := func(what, a, b string) {
		out = append(out, fmt.Sprintf("service %q: %s changed from %s to %s", service, what, orUnset(a), orUnset(b)))
	}
	if was.Profile != now.Profile {
		say("profile", was.Profile, now.Profile)
	}
	for _, k := range unionKeys(was.Versions, now.Versions) {
		if was.Versions[k] != now.Versions[k] {
			say(k+" version", was.Versions[k], now.Versions[k])
		}
	}
	if was.Image != now.Image {
		say("image", was.Image, now.Image)
	}
	if !slices.Equal(was.Jars, now.Jars) {
		say("jars", strings.Join(was.Jars, ", "), strings.Join(now.Jars, ", "))
	}
	if was.Custom != now.Custom {
		out = append(out, fmt.Sprintf("service %q: its custom profile %q changed (base_image, apt, pip, jars, defaults or extends)", service, now.Profile))
	}
	if was.Mirror != now.Mirror {
		out = append(out, fmt.Sprintf("service %q: the production description it mirrors changed", service))
	}
	if was.MirrorFormat != now.MirrorFormat {
		say("mirror_format", was.MirrorFormat, now.MirrorFormat)
	}
	if !slices.Equal(was.From, now.From) {
		say("the images its Dockerfile builds FROM", strings.Join(was.From, ", "), strings.Join(now.From, ", "))
	}
	return out
}

func orUnset(s string) string {
	if s == "" {
		return "(unset)"
	}
	return fmt.Sprintf("%q", s)
}

func unionKeys(a, b map[string]string) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
