package spec

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/internal/sources"
)

// registryCredentials refuses a registry mirror written with credentials
// (user:password@host, user@host, with or without a scheme): devenv.yaml is
// committed, and the engine takes registry credentials from docker login.
// The message names the key and never repeats the value.
func registryCredentials(d *decoder, name string, v *yaml.Node) bool {
	if v == nil || v.Kind != yaml.ScalarNode {
		return false
	}
	host := v.Value
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if j := strings.IndexByte(host, '/'); j >= 0 {
		host = host[:j]
	}
	if !strings.Contains(host, "@") {
		return false
	}
	d.errAt(v, "write host[:port] alone and log in with `docker login HOST` (devenv.yaml is committed; the engine reads registry credentials from docker's own store)",
		"mirrors.registries.%s holds credentials (user:password@); the value is not shown here", name)
	return true
}

// decodeAptMirror reads mirrors.apt: an http(s) URL without credentials,
// query or fragment (sources.APTMirrorProblem). The URL is written into the
// build's RUN steps, which the image history keeps, so credentials are
// refused there.
func decodeAptMirror(d *decoder, m *Mirrors, f field) {
	v, ok := d.str(f, "mirrors.apt")
	if !ok {
		return
	}
	if why := sources.APTMirrorProblem(v); why != "" {
		hint := `write a URL such as "http://apt.corp.example" or "https://artifactory.corp.example/debian-remote"`
		if strings.Contains(why, "credentials") {
			hint = "write the URL alone: the build's apt steps, and so the image history, hold it; reach a mirror that needs a login through a proxy (proxies in ~/.docker/config.json)"
		}
		d.errAt(f.val, hint, "mirrors.apt %s", why)
		return
	}
	m.APT = strings.TrimRight(v, "/")
}
