package spec

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/internal/readset"
)

// decoder walks yaml.v3 nodes of one file and collects every problem.
type decoder struct {
	file  string // display name, relative to the project
	dir   string // absolute project directory
	errs  *[]*Error
	reads *readset.Set // what the load read (ParseOptions.Reads)
}

func posOf(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column} }

// errAt records a problem at node n.
func (d *decoder) errAt(n *yaml.Node, hint, format string, args ...any) {
	d.errPos(posOf(n), hint, format, args...)
}

func (d *decoder) errPos(p Pos, hint, format string, args ...any) {
	*d.errs = append(*d.errs, &Error{File: d.file, Pos: p, Msg: fmt.Sprintf(format, args...), Hint: hint})
}

// resolve follows aliases so that anchors work like plain values.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// kindName describes what a node holds, for "got ..." messages.
func kindName(n *yaml.Node) string {
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "a map"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!int", "!!float":
			return "the number " + n.Value
		case "!!bool":
			return n.Value
		case "!!null":
			return "nothing"
		}
		return fmt.Sprintf("the string %q", n.Value)
	}
	return "something else"
}

// field is one key: value pair of a mapping.
type field struct {
	name     string
	key, val *yaml.Node
}

// mapping returns the pairs of a map node, reporting a non-map value,
// non-string keys, merge keys and keys given twice (only the first is kept).
func (d *decoder) mapping(n *yaml.Node, what string) []field {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		d.errAt(n, "", "%s must be a map, got %s", what, kindName(n))
		return nil
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	out := make([]field, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errAt(k, "", "keys in %s must be strings, got %s", what, kindName(k))
			continue
		}
		if k.Tag == "!!merge" {
			d.errAt(k, "write the keys out; devenv.yaml does not support YAML merge keys", "merge key << in %s is not supported", what)
			continue
		}
		if first, dup := seen[k.Value]; dup {
			d.errAt(k, "remove one of them", "key %q is given twice in %s (first at line %d)", k.Value, what, first.Line)
			continue
		}
		seen[k.Value] = k
		out = append(out, field{name: k.Value, key: k, val: v})
	}
	return out
}

// handler decodes the value of one known key.
type handler[T any] func(d *decoder, t T, f field)

// fields decodes a map whose keys are known in advance; unknown keys are
// reported with the closest known key; keys starting with "x-" are left
// to other tools. Null values count as not written.
func fields[T any](d *decoder, n *yaml.Node, what string, known map[string]handler[T], t T) []field {
	var done []field
	for _, f := range d.mapping(n, what) {
		if strings.HasPrefix(f.name, "x-") {
			continue // extension keys, as in compose: for anchors and tools
		}
		h, ok := known[f.name]
		if !ok {
			d.unknownKey(f.key, what, slices.Sorted(maps.Keys(known)))
			continue
		}
		done = append(done, f)
		if isNull(f.val) {
			continue
		}
		h(d, t, field{name: f.name, key: f.key, val: resolve(f.val)})
	}
	return done
}

func (d *decoder) unknownKey(k *yaml.Node, what string, known []string) {
	if s := suggest(k.Value, known); s != "" {
		d.errAt(k, "", "unknown key %q in %s; did you mean %q?", k.Value, what, s)
		return
	}
	d.errAt(k, "known keys: "+strings.Join(known, ", "), "unknown key %q in %s", k.Value, what)
}

// str reads a string value; numbers and booleans are refused so that
// "yes" or 1.10 never silently become something else.
func (d *decoder) str(f field, what string) (string, bool) {
	n := f.val
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		d.errAt(n, "", "%s must be a string, got %s", what, kindName(n))
		return "", false
	}
	return n.Value, true
}

// scalar reads any string, number or boolean as its written text.
func (d *decoder) scalar(n *yaml.Node, what string) (string, bool) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode {
		d.errAt(n, "", "%s must be a string, a number or true/false, got %s", what, kindName(n))
		return "", false
	}
	if n.Tag == "!!null" {
		return "", true
	}
	return n.Value, true
}

func (d *decoder) integer(f field, what string) (int, bool) {
	n := f.val
	var v int
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil {
		d.errAt(n, "", "%s must be a whole number, got %s", what, kindName(n))
		return 0, false
	}
	return v, true
}

func (d *decoder) boolean(f field, what string) (bool, bool) {
	n := f.val
	var v bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&v) != nil {
		d.errAt(n, "", "%s must be true or false, got %s", what, kindName(n))
		return false, false
	}
	return v, true
}

// strList reads a list of strings, returning each item's node too.
func (d *decoder) strList(f field, what string) ([]string, []*yaml.Node) {
	n := f.val
	if n.Kind != yaml.SequenceNode {
		d.errAt(n, "", "%s must be a list of strings, got %s", what, kindName(n))
		return nil, nil
	}
	var out []string
	var nodes []*yaml.Node
	for _, item := range n.Content {
		item = resolve(item)
		if item.Kind != yaml.ScalarNode || item.Tag != "!!str" {
			d.errAt(item, "", "each item of %s must be a string, got %s", what, kindName(item))
			continue
		}
		out = append(out, item.Value)
		nodes = append(nodes, item)
	}
	return out, nodes
}

// strMap reads a map of names to scalars (numbers and booleans kept as
// written), as for env: and conf:.
// checkKey, when not nil, validates each key.
func (d *decoder) strMap(f field, what string, checkKey func(k *yaml.Node)) map[string]string {
	pairs := d.mapping(f.val, what)
	out := make(map[string]string, len(pairs))
	for _, p := range pairs {
		if p.name == "" {
			d.errAt(p.key, "", "empty key in %s", what)
			continue
		}
		if checkKey != nil {
			checkKey(p.key)
		}
		if v, ok := d.scalar(p.val, fmt.Sprintf("%s.%s", what, p.name)); ok {
			out[p.name] = v
		}
	}
	return out
}
