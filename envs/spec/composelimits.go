package spec

import (
	"path"

	"github.com/compose-spec/compose-go/v2/format"
	"github.com/docker/go-units"
	"go.yaml.in/yaml/v3"
)

// A compose file's own values that compose-go accepts but the engine
// refuses at create time, after a build and naming no line: a mount on the
// container's / and a memory size under the engine's 6 MiB. They are
// refused here at the compose file's line, like devenv.yaml's (limits.go).

// composeMemoryKeys are the memory sizes of a service, by path.
var composeMemoryKeys = [][]string{
	{"mem_limit"}, {"mem_reservation"},
	{"deploy", "resources", "limits", "memory"}, {"deploy", "resources", "reservations", "memory"},
}

// engineLimits checks one compose service's memory sizes and mount targets.
func (g *composeGuard) engineLimits(d *decoder, svc *yaml.Node) {
	for _, keys := range composeMemoryKeys {
		n := svc
		for _, k := range keys {
			n = mapGet(n, k)
		}
		if n != nil && n.Kind == yaml.ScalarNode {
			g.composeMemory(d, n, joinKeys(keys))
		}
	}
	if vols := resolve(mapGet(svc, "volumes")); vols != nil && vols.Kind == yaml.SequenceNode {
		for _, v := range vols.Content {
			g.mountTarget(d, resolve(v))
		}
	}
}

// composeMemory refuses a size under MinMemoryBytes (0 is no limit), read
// as compose-go reads it (go-units, powers of 1024).
func (g *composeGuard) composeMemory(d *decoder, n *yaml.Node, key string) {
	v, ok := g.expand(n.Value)
	if !ok || v == "" {
		return
	}
	b, err := units.RAMInBytes(v)
	if err != nil || b == 0 {
		return // compose-go reports what it cannot read
	}
	if b < MinMemoryBytes {
		d.errAt(n, `give at least "6m", or remove it for no limit`,
			"%s %s is %d bytes, below the 6 MiB (6291456 bytes) the Docker engine accepts", key, shown(n.Value, v), b)
	}
}

// mountTarget refuses a volume (bind, named, anonymous or tmpfs) mounted
// on the container's /, which the engine refuses.
func (g *composeGuard) mountTarget(d *decoder, v *yaml.Node) {
	var target string
	at := v
	switch v.Kind {
	case yaml.ScalarNode:
		s, ok := g.expand(v.Value)
		if !ok {
			return
		}
		vol, err := format.ParseVolume(s)
		if err != nil {
			return // compose-go reports it
		}
		target = vol.Target
	case yaml.MappingNode:
		t := mapGet(v, "target")
		if t == nil || t.Kind != yaml.ScalarNode {
			return
		}
		s, ok := g.expand(t.Value)
		if !ok {
			return
		}
		target, at = s, t
	default:
		return
	}
	if target != "" && path.Clean(target) == "/" {
		d.errAt(at, "mount it on a directory such as /data", "volume target %q is the container's root; the Docker engine refuses a mount on /", target)
	}
}

func joinKeys(keys []string) string {
	s := keys[0]
	for _, k := range keys[1:] {
		s += "." + k
	}
	return s
}
