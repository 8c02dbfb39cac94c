package loader

import (
	"encoding/json"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The YAML side of the schema check: a compose file as the values the
// schema validates, and where a value's path was written.

// plainValue is n as JSON values (maps, lists, strings, numbers,
// booleans), the form the schema validates.
func plainValue(n *yaml.Node) (any, error) {
	n = resolved(n)
	switch n.Kind {
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "<<" && k.Tag == "!!merge" {
				if err := mergeInto(out, v); err != nil {
					return nil, err
				}
				continue
			}
			if v.Tag == "!reset" {
				delete(out, k.Value)
				continue
			}
			x, err := plainValue(v)
			if err != nil {
				return nil, err
			}
			out[k.Value] = x
		}
		return out, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			x, err := plainValue(c)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	var v any
	c := *n
	if strings.HasPrefix(c.Tag, "!") && !strings.HasPrefix(c.Tag, "!!") {
		c.Tag = "" // !override and other compose tags: the value as written
	}
	if err := c.Decode(&v); err != nil {
		return nil, err
	}
	return jsonNumber(v), nil
}

// mergeInto adds the keys of a YAML merge (<<: *a, or a list of them)
// that out does not hold yet.
func mergeInto(out map[string]any, v *yaml.Node) error {
	v = resolved(v)
	srcs := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		srcs = v.Content
	}
	for _, src := range srcs {
		m, err := plainValue(src)
		if err != nil {
			return err
		}
		mm, _ := m.(map[string]any)
		for k, x := range mm {
			if _, ok := out[k]; !ok {
				out[k] = x
			}
		}
	}
	return nil
}

func resolved(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// jsonNumber gives numbers the types the validator reads (JSON's).
func jsonNumber(v any) any {
	switch x := v.(type) {
	case int:
		return json.Number(strconv.Itoa(x))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case uint64:
		return json.Number(strconv.FormatUint(x, 10))
	case float64:
		return json.Number(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return v
}

// placeOf is where path was written: the key of its last mapping step,
// or the list item; as far as the path goes in the file.
func placeOf(root *yaml.Node, path []string, file string) place {
	n, at := resolved(root), place{file, root.Line, root.Column}
	for _, tok := range path {
		switch n.Kind {
		case yaml.MappingNode:
			k, v := mappingEntry(n, tok)
			if k == nil {
				return at
			}
			at, n = place{file, k.Line, k.Column}, resolved(v)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return at
			}
			n = resolved(n.Content[i])
			at = place{file, n.Line, n.Column}
		default:
			return at
		}
	}
	return at
}

// writtenAt is where path was written, when the file writes all of it.
func writtenAt(root *yaml.Node, path []string, file string) (place, bool) {
	n := resolved(root)
	for i, tok := range path {
		if n.Kind != yaml.MappingNode {
			return place{}, false
		}
		k, v := mappingEntry(n, tok)
		if k == nil {
			return place{}, false
		}
		if i == len(path)-1 {
			return place{file, k.Line, k.Column}, true
		}
		n = resolved(v)
	}
	return place{}, false
}

func mappingEntry(n *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			k, v = n.Content[i], n.Content[i+1]
		}
	}
	return k, v
}
