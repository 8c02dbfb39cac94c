package mirror

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// dropDuplicateKeys removes the earlier of a mapping's repeated keys,
// everywhere in the document, and says which it removed. kubectl reads
// manifests as YAML 1.1 maps where the last value of a repeated key wins
// (the API server warns "duplicate field"); yaml.v3 refuses to decode
// such a map, so a Spark Operator file Kubernetes accepts would not read.
func dropDuplicateKeys(n *yaml.Node) []string {
	var notes []string
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if n.Kind == yaml.MappingNode {
			n.Content, notes = lastKeyWins(n.Content, notes)
		}
		for _, c := range n.Content { // an alias's anchor is walked where it is defined
			walk(c)
		}
	}
	walk(n)
	return notes
}

// lastKeyWins keeps each key's last key/value pair of a mapping's content.
func lastKeyWins(content []*yaml.Node, notes []string) ([]*yaml.Node, []string) {
	last := map[string]int{}
	for i := 0; i+1 < len(content); i += 2 {
		if k := content[i]; k.Kind == yaml.ScalarNode && k.Tag != "!!merge" {
			last[k.Value] = i
		}
	}
	out := content[:0:0]
	for i := 0; i+1 < len(content); i += 2 {
		k := content[i]
		if j, ok := last[k.Value]; ok && k.Kind == yaml.ScalarNode && k.Tag != "!!merge" && j != i {
			notes = append(notes, fmt.Sprintf("line %d: %s is set again at line %d; the last value is used, as kubectl and YAML 1.1 readers take it",
				k.Line, k.Value, content[j].Line))
			continue
		}
		out = append(out, content[i], content[i+1])
	}
	return out, notes
}
