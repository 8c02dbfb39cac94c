package spec

import (
	"strings"

	"gopkg.in/yaml.v3"
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
