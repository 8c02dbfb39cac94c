package loader

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// schemaKeys are the properties the schema at url (a mapping's schema,
// where an unknown key was found) lists, with those of the schemas it
// combines (allOf, $ref), sorted.
func schemaKeys(meta map[string]any, url string) []string {
	_, frag, _ := strings.Cut(url, "#")
	frag = strings.TrimSuffix(strings.TrimSuffix(frag, "/additionalProperties"), "/unevaluatedProperties")
	seen := map[string]bool{}
	collectKeys(meta, pointer(meta, frag), seen, 0)
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// pointer is the schema node a JSON pointer (a URL fragment) names.
func pointer(meta map[string]any, frag string) any {
	var node any = meta
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		switch n := node.(type) {
		case map[string]any:
			node = n[pointerToken(tok)]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return nil
			}
			node = n[i]
		default:
			return nil
		}
	}
	return node
}

func collectKeys(meta map[string]any, node any, into map[string]bool, depth int) {
	m, ok := node.(map[string]any)
	if !ok || depth > 8 {
		return
	}
	props, _ := m["properties"].(map[string]any)
	for k := range props {
		into[k] = true
	}
	if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
		collectKeys(meta, pointer(meta, strings.TrimPrefix(ref, "#")), into, depth+1)
	}
	all, _ := m["allOf"].([]any)
	for _, sub := range all {
		collectKeys(meta, sub, into, depth+1)
	}
}

func pointerToken(tok string) string {
	if u, err := url.PathUnescape(tok); err == nil {
		tok = u
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}
