package spec

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/internal/redact"
	"github.com/devenv-dev/devenv/profiles"
)

// BuiltinProfiles are the profile names devenv ships with, in the order
// they are shown to users.
var BuiltinProfiles = []string{profiles.SparkRapids, profiles.Rapids, profiles.Triton, profiles.Image}

func isBuiltin(name string) bool { return slices.Contains(BuiltinProfiles, name) }

// customNodes is a custom profile being decoded.
type customNodes struct {
	c    *profiles.Custom
	what string
}

var customKeys = map[string]handler[*customNodes]{
	"extends": decodeExtends,
	"base_image": func(d *decoder, t *customNodes, f field) {
		if v, ok := d.str(f, "base_image"); ok && d.imageRef(f.val, "base_image", v) {
			t.c.BaseImage = v
		}
	},
	"apt":  func(d *decoder, t *customNodes, f field) { t.c.Apt = d.aptList(f) },
	"pip":  func(d *decoder, t *customNodes, f field) { t.c.Pip = d.pipList(f) },
	"jars": func(d *decoder, t *customNodes, f field) { t.c.Jars = d.jarList(f) },
	"env":  func(d *decoder, t *customNodes, f field) { t.c.Env = d.imageEnv(f) },
	"conf": func(d *decoder, t *customNodes, f field) { t.c.Conf = d.confMap(f) },
	"ca_certs": func(d *decoder, t *customNodes, f field) {
		t.c.CACerts = d.caFiles(f)
	},
	"defaults": func(d *decoder, t *customNodes, f field) {
		fields(d, f.val, "defaults of "+t.what, defaultsKeys, &t.c.Defaults)
	},
}

func decodeExtends(d *decoder, t *customNodes, f field) {
	v, ok := d.str(f, "extends")
	if !ok {
		return
	}
	if !isBuiltin(v) {
		d.errAt(f.val, "a custom profile extends one of: "+strings.Join(BuiltinProfiles, ", "), "%s extends %q, which is not a built-in profile%s", t.what, v, didYouMean(v, BuiltinProfiles))
		return
	}
	t.c.Extends = v
}

func didYouMean(v string, candidates []string) string {
	if s := suggest(v, candidates); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

var defaultsKeys = map[string]handler[*profiles.Request]{
	"spark":   defaultVersion(func(r *profiles.Request) *string { return &r.Spark }),
	"rapids":  defaultVersion(func(r *profiles.Request) *string { return &r.Rapids }),
	"scala":   defaultVersion(func(r *profiles.Request) *string { return &r.Scala }),
	"java":    defaultVersion(func(r *profiles.Request) *string { return &r.Java }),
	"python":  defaultVersion(func(r *profiles.Request) *string { return &r.Python }),
	"cuda":    defaultVersion(func(r *profiles.Request) *string { return &r.CUDA }),
	"release": defaultVersion(func(r *profiles.Request) *string { return &r.Release }),
}

func defaultVersion(dst func(*profiles.Request) *string) handler[*profiles.Request] {
	return func(d *decoder, r *profiles.Request, f field) {
		v, ok := d.scalar(f.val, f.name)
		if !ok {
			return
		}
		if msg, hint := checkVersion(f.name, v); msg != "" {
			d.errAt(f.val, hint, "%s in profile defaults", msg)
			return
		}
		*dst(r) = v
	}
}

// imageEnv reads a custom profile's env: map, which becomes ENV lines of
// the image's Dockerfile: a value that spans lines or holds a NUL cannot
// be written there, so it is refused at its own line.
func (d *decoder) imageEnv(f field) map[string]string {
	out := d.strMap(f, "env", d.checkEnvName)
	for _, p := range d.quietMapping(f.val) {
		if v := resolve(p.val); v.Kind == yaml.ScalarNode && strings.ContainsAny(v.Value, "\x00\n\r") {
			d.errAt(v, "write the value on one line (a custom profile's env is baked into the image as Dockerfile ENV lines)", "env %s of a custom profile has a line break or NUL in its value", p.name)
			delete(out, p.name)
		}
	}
	return out
}

// jarList reads Maven coordinates.
func (d *decoder) jarList(f field) []string {
	items, nodes := d.strList(f, "jars")
	var out []string
	for i, s := range items {
		if why := jarProblem(s); why != "" {
			d.errAt(nodes[i], `write group:artifact:version[:classifier], e.g. "io.delta:delta-spark_2.12:3.2.0"`, "jar %q %s", s, why)
			continue
		}
		out = append(out, s)
	}
	return out
}

// decodeCustoms reads a map of custom profiles (profiles: or a profile file).
func (l *loader) decodeCustoms(d *decoder, n *yaml.Node) {
	for _, f := range d.mapping(n, "profiles") {
		name := f.name
		if isBuiltin(name) {
			d.errAt(f.key, "give your profile its own name and write extends: "+name, "custom profile %q has the name of a built-in profile", name)
			continue
		}
		if why := serviceNameProblem(name); why != "" {
			d.errAt(f.key, "use up to 63 letters, digits, '_', '.' and '-', starting and ending with a letter or digit", "custom profile name %q is not valid: %s", name, why)
			continue
		}
		if at, dup := l.customAt[name]; dup {
			d.errAt(f.key, "rename or remove one of them", "custom profile %q is already defined at %s:%d:%d", name, at.File, at.Pos.Line, at.Pos.Col)
			continue
		}
		t := &customNodes{c: &profiles.Custom{Name: name}, what: fmt.Sprintf("profile %q", name)}
		if isNull(f.val) {
			d.errAt(f.key, "add extends: spark-rapids (or rapids, triton, image)", "custom profile %q is empty", name)
			continue
		}
		written := fields(d, f.val, t.what, customKeys, t)
		if !slices.ContainsFunc(written, func(w field) bool { return w.name == "extends" }) {
			d.errAt(f.key, "add extends: with one of: "+strings.Join(BuiltinProfiles, ", "), "custom profile %q does not say which built-in profile it extends", name)
		}
		loc := Location{File: d.file, Pos: posOf(f.key)}
		l.customAt[name] = loc
		l.p.ProfileLoc[name] = loc
		l.p.Profiles[name] = t.c
	}
}

var mirrorKeys = map[string]handler[*Mirrors]{
	"registries": decodeRegistries,
	"maven":      urlKey(func(m *Mirrors) *string { return &m.Maven }),
	"apache":     urlKey(func(m *Mirrors) *string { return &m.Apache }),
	"pypi":       urlKey(func(m *Mirrors) *string { return &m.PyPI }),
	"apt":        decodeAptMirror,
}

func decodeMirrors(d *decoder, l *loader, f field) {
	fields(d, f.val, "mirrors", mirrorKeys, &l.p.Mirrors)
}

func urlKey(dst func(*Mirrors) *string) handler[*Mirrors] {
	return func(d *decoder, m *Mirrors, f field) {
		v, ok := d.str(f, "mirrors."+f.name)
		if !ok {
			return
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			d.errAt(f.val, `write a full URL such as "http://127.0.0.1:8081/maven2"`, "mirrors.%s %q is not an http(s) URL", f.name, redact.URLs(v))
			return
		}
		*dst(m) = strings.TrimRight(v, "/")
	}
}

func decodeRegistries(d *decoder, m *Mirrors, f field) {
	m.Registries = map[string]string{}
	for _, p := range d.mapping(f.val, "mirrors.registries") {
		v, ok := d.str(field{val: resolve(p.val)}, "mirrors.registries."+p.name)
		if !ok {
			continue
		}
		if registryCredentials(d, p.name, resolve(p.val)) {
			continue
		}
		bad := false
		for _, n := range []*yaml.Node{p.key, resolve(p.val)} {
			if n.Value == "" || strings.Contains(n.Value, "://") || strings.ContainsAny(n.Value, " /") {
				d.errAt(n, `write host[:port] without a scheme, e.g. nvcr.io: "127.0.0.1:5055"`, "%q is not a registry host", n.Value)
				bad = true
			}
		}
		if !bad {
			m.Registries[p.name] = v
		}
	}
}
