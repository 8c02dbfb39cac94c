package app

import (
	"bytes"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// textEdit changes one service's keys in devenv.yaml's own text, so that
// every other byte (comments, blank lines, quoting, key order) stays as the
// user wrote it. It handles scalars on one line in block or flow mappings;
// anything else (a block scalar, a key split over lines) makes ok false,
// and the caller re-encodes the whole document instead.
type textEdit struct {
	lines []string // without their line ends
	nl    string   // "\n" or "\r\n", as the file has it
	ok    bool
}

func newTextEdit(raw []byte) *textEdit {
	nl := "\n"
	if bytes.Contains(raw, []byte("\r\n")) {
		nl = "\r\n"
	}
	return &textEdit{lines: strings.Split(string(raw), nl), nl: nl, ok: true}
}

func (e *textEdit) bytes() []byte { return []byte(strings.Join(e.lines, e.nl)) }

// set writes key: value into the mapping svc (a node of the document the
// text was parsed into, positions intact), replacing the value in place when
// the key is there and adding a line (a pair, in a flow mapping) when not.
func (e *textEdit) set(svc *yaml.Node, key, value string) {
	word, err := yamlWord(value)
	if err != nil {
		e.ok = false
		return
	}
	if v := mapValue(svc, key); v != nil {
		e.replaceScalar(v, word)
		return
	}
	if svc.Style&yaml.FlowStyle != 0 {
		e.addFlowPair(svc, key+": "+word)
		return
	}
	e.addBlockLine(svc, key+": "+word)
}

// remove deletes key's line from the block mapping svc.
func (e *textEdit) remove(svc *yaml.Node, key string) {
	for i := 0; i+1 < len(svc.Content); i += 2 {
		k, v := svc.Content[i], svc.Content[i+1]
		if k.Value != key {
			continue
		}
		if svc.Style&yaml.FlowStyle != 0 || v.Kind != yaml.ScalarNode || v.Line != k.Line || !e.alone(k) {
			e.ok = false
			return
		}
		e.lines = append(e.lines[:k.Line-1], e.lines[k.Line:]...)
		return
	}
}

// alone reports whether the key n starts its line (nothing but indentation
// before it), so that removing the line removes only its pair.
func (e *textEdit) alone(n *yaml.Node) bool {
	l, ok := e.line(n.Line)
	return ok && n.Column >= 1 && n.Column-1 <= len(l) && strings.TrimSpace(l[:n.Column-1]) == ""
}

func (e *textEdit) line(n int) (string, bool) {
	if n < 1 || n > len(e.lines) {
		return "", false
	}
	return e.lines[n-1], true
}

// replaceScalar writes word over the scalar v's own text.
func (e *textEdit) replaceScalar(v *yaml.Node, word string) {
	l, ok := e.line(v.Line)
	if !ok || v.Kind != yaml.ScalarNode || v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		e.ok = false
		return
	}
	start := v.Column - 1
	end := scalarEnd(l, start)
	if end < 0 {
		e.ok = false
		return
	}
	e.lines[v.Line-1] = l[:start] + word + l[end:]
}

// addBlockLine inserts "indent key: value" after the last line that holds
// any of the mapping's content, at the indentation of its first key.
func (e *textEdit) addBlockLine(m *yaml.Node, pair string) {
	if len(m.Content) == 0 || hasBlockScalar(m) {
		e.ok = false
		return
	}
	last := lastLine(m)
	if _, ok := e.line(last); !ok {
		e.ok = false
		return
	}
	indent := strings.Repeat(" ", m.Content[0].Column-1)
	e.lines = append(e.lines[:last], append([]string{indent + pair}, e.lines[last:]...)...)
}

// addFlowPair inserts ", key: value" after the flow mapping's last value,
// which must end on its line.
func (e *textEdit) addFlowPair(m *yaml.Node, pair string) {
	if len(m.Content) < 2 {
		e.ok = false
		return
	}
	v := m.Content[len(m.Content)-1]
	l, ok := e.line(v.Line)
	if !ok || v.Kind != yaml.ScalarNode {
		e.ok = false
		return
	}
	end := scalarEnd(l, v.Column-1)
	if end < 0 {
		e.ok = false
		return
	}
	e.lines[v.Line-1] = l[:end] + ", " + pair + l[end:]
}

// scalarEnd is where the one-line scalar starting at l[start] ends: past
// its closing quote, or for a plain scalar before a comment, a flow
// indicator or the line end (trailing blanks left out); -1 when it does not
// end on the line.
func scalarEnd(l string, start int) int {
	if start < 0 || start >= len(l) {
		return -1
	}
	switch l[start] {
	case '"':
		for i := start + 1; i < len(l); i++ {
			switch l[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return -1
	case '\'':
		for i := start + 1; i < len(l); i++ {
			if l[i] == '\'' {
				if i+1 < len(l) && l[i+1] == '\'' {
					i++
					continue
				}
				return i + 1
			}
		}
		return -1
	}
	end := len(l)
	if i := strings.Index(l[start:], " #"); i >= 0 {
		end = start + i
	}
	if i := strings.IndexAny(l[start:end], ",}]"); i >= 0 {
		end = start + i
	}
	return start + len(strings.TrimRight(l[start:end], " \t"))
}

// lastLine is the last line any node under n starts on.
func lastLine(n *yaml.Node) int {
	last := n.Line
	for _, c := range n.Content {
		if l := lastLine(c); l > last {
			last = l
		}
	}
	return last
}

func hasBlockScalar(n *yaml.Node) bool {
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return true
	}
	for _, c := range n.Content {
		if hasBlockScalar(c) {
			return true
		}
	}
	return false
}

// yamlWord is s as a YAML scalar on one line: plain where YAML reads it
// back as that string, quoted where not.
func yamlWord(s string) (string, error) {
	b, err := yaml.Marshal(s)
	w := strings.TrimSuffix(string(b), "\n")
	if err == nil && strings.Contains(w, "\n") {
		b, err = yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Style: yaml.DoubleQuotedStyle, Value: s})
		w = strings.TrimSuffix(string(b), "\n")
	}
	return w, err
}

// sameYAML reports whether two documents hold the same data: the check that
// a text edit did what the node edit means.
func sameYAML(a, b []byte) bool {
	var x, y any
	if yaml.Unmarshal(a, &x) != nil || yaml.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
