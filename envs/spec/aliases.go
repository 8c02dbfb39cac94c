package spec

import (
	"go.yaml.in/yaml/v3"
)

// A YAML alias (*name) stands for a copy of its anchor's whole value, so
// a few hundred bytes of anchors that alias each other (a "billion laughs"
// file) stand for billions of values. devenv.yaml is read as a node tree
// and never copies an anchor, but compose-go (and the tools an export is
// for) expand every alias, x- extension fields included, and interpolate
// every copy. So devenv.yaml and every compose file it makes compose-go
// read get one budget, checked on the node tree before anything expands:
// the aliases of a file may add at most MaxAliasNodes values and
// MaxAliasBytes bytes of text to it. Real files alias a few defaults into
// each service (a few thousand values for the largest).
const (
	MaxAliasNodes = 10_000
	MaxAliasBytes = 1 << 20
)

// expansion is what a node stands for once its aliases are expanded.
type expansion struct{ nodes, bytes int64 }

func (e expansion) add(o expansion) expansion {
	return expansion{sat(e.nodes + o.nodes), sat(e.bytes + o.bytes)}
}

func (e expansion) over() bool { return e.nodes > MaxAliasNodes || e.bytes > MaxAliasBytes }

// sat keeps a count from overflowing: anything past the budget is as bad.
func sat(n int64) int64 { return min(n, 1<<40) }

// aliasBudget reports, at the alias where they run past the budget, a file
// whose aliases expand to more than MaxAliasNodes values or MaxAliasBytes
// bytes (an anchor that holds an alias of itself stands for an endless
// value). It walks every node once: the expansion of each anchor is
// computed once and kept.
func (d *decoder) aliasBudget(root *yaml.Node) bool {
	a := &aliasWalk{memo: map[*yaml.Node]expansion{}, busy: map[*yaml.Node]bool{}}
	a.walk(root)
	if a.at == nil {
		return true
	}
	d.errAt(a.at, "write the values out, or alias fewer and smaller anchors: compose expands every alias, x- fields included, before it reads the file",
		"the YAML aliases of this file expand to more than %d values or %d bytes (*%s here runs past that); devenv refuses it before any reader expands them",
		MaxAliasNodes, MaxAliasBytes, a.at.Value)
	return false
}

type aliasWalk struct {
	memo  map[*yaml.Node]expansion
	busy  map[*yaml.Node]bool
	added expansion  // what the aliases seen so far add to the file
	at    *yaml.Node // the alias where added ran past the budget
}

// walk visits the file's own nodes, adding each alias's expansion.
func (a *aliasWalk) walk(n *yaml.Node) {
	if n == nil || a.at != nil {
		return
	}
	if n.Kind == yaml.AliasNode {
		a.added = a.added.add(a.size(n.Alias))
		if a.added.over() {
			a.at = n
		}
		return
	}
	for _, c := range n.Content {
		a.walk(c)
	}
}

// size is the expansion of n: itself and its content, aliases expanded.
func (a *aliasWalk) size(n *yaml.Node) expansion {
	if n == nil {
		return expansion{}
	}
	if e, ok := a.memo[n]; ok {
		return e
	}
	if a.busy[n] {
		return expansion{nodes: 1 << 40} // it contains itself: endless
	}
	a.busy[n] = true
	var e expansion
	if n.Kind == yaml.AliasNode {
		e = a.size(n.Alias)
	} else {
		e = expansion{nodes: 1, bytes: int64(len(n.Value))}
		for _, c := range n.Content {
			if e = e.add(a.size(c)); e.over() {
				break
			}
		}
	}
	delete(a.busy, n)
	a.memo[n] = e
	return e
}
