package mirror

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
	"go.yaml.in/yaml/v3"
)

// describeUnknown says what a file no reader takes is: a shell heredoc
// and its placeholders, a Kubernetes manifest of another kind, a JSON of
// an unknown shape; so the refusal names what devenv found.
func describeUnknown(data []byte) string {
	text := string(data)
	if h := heredocNote(text); h != "" {
		return h
	}
	if k := manifestKinds(data); k != "" {
		return k
	}
	if j := jsonShape(data); j != "" {
		return j
	}
	if y := yamlShape(data); y != "" {
		return y
	}
	if c := commentsOnly(text); c != "" {
		return c
	}
	return "the content matches no supported format"
}

// commentsOnly describes a file whose every line is blank or a # comment
// (a manifest or script commented out whole), or "".
func commentsOnly(text string) string {
	n := 0
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "#"):
			n++
		default:
			return ""
		}
	}
	if n == 0 {
		return "an empty file: nothing to read"
	}
	return fmt.Sprintf("a file of comments only (%d # lines, every one commented out): nothing to read; mirror the file prod runs, or uncomment what it should read", n)
}

var (
	heredocRe     = lazy.Regexp(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)
	shellPlaceRe  = lazy.Regexp(`\$\(\([^)]*\)\)|\$\([^)]*\)|\$\{[A-Za-z_][A-Za-z0-9_]*[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*`)
	clusterKeysRe = lazy.Regexp(`"(spark_version|node_type_id|num_workers|new_cluster)"`)
)

// heredocNote describes a shell script that prints a heredoc, with the
// shell placeholders in it, or "".
func heredocNote(text string) string {
	m := heredocRe().FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	what := "a shell script that prints a heredoc (<<" + m[1] + ")"
	if clusterKeysRe().MatchString(text) {
		what += " holding a Databricks cluster spec"
	}
	return what + shellPlaceholders(text) + ", not a file devenv reads; run the script (or fill in its variables) and mirror what it prints, or force a reader with --format"
}

// shellPlaceholders lists the first distinct shell expansions in text.
func shellPlaceholders(text string) string {
	var out []string
	for _, p := range shellPlaceRe().FindAllString(text, -1) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
		if len(out) == 6 {
			break
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " with shell placeholders " + strings.Join(out, ", ")
}

// manifestKinds describes YAML documents that have a kind but none devenv
// reads, or "".
func manifestKinds(data []byte) string {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var found []string
	for i := 0; i < 16; i++ {
		var v any
		if err := dec.Decode(&v); err != nil {
			break
		}
		if m := asMap(v); m != nil && str(m["kind"]) != "" {
			found = append(found, kindOf(m))
		}
	}
	if len(found) == 0 {
		return ""
	}
	return fmt.Sprintf("a Kubernetes manifest of %s, not a Spark Operator kind devenv reads (%s)",
		strings.Join(found, ", "), strings.Join(sparkOperatorKinds, ", "))
}

// jsonShape describes a JSON document no reader recognised, or "".
func jsonShape(data []byte) string {
	text := strings.TrimSpace(string(data))
	text = afterCommentLines(text)
	if !strings.HasPrefix(text, "{") && !strings.HasPrefix(text, "[") {
		return ""
	}
	v, err := decodeJSON(data)
	if err != nil {
		if yamlShape(data) != "" {
			return "" // YAML in JSON's clothes: yamlShape names it
		}
		return fmt.Sprintf("JSON that does not parse (%v): fix it, or export the file again", err)
	}
	if arr, ok := v.([]any); ok {
		return fmt.Sprintf("a JSON array of %d items, none an EMR classification or step", len(arr))
	}
	keys := slices.Sorted(maps.Keys(asMap(v)))
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	return "a JSON object with the top-level keys " + strings.Join(keys, ", ") + ", which no reader knows"
}

// yamlShape describes a YAML mapping no reader recognised by its
// top-level keys, or "".
func yamlShape(data []byte) string {
	var node yaml.Node
	if err := yaml.Unmarshal(data, &node); err != nil || len(node.Content) == 0 || node.Content[0].Kind != yaml.MappingNode {
		return ""
	}
	var keys []string
	for i := 0; i < len(node.Content[0].Content); i += 2 {
		keys = append(keys, node.Content[0].Content[i].Value)
	}
	slices.Sort(keys)
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	return "a YAML mapping with the top-level keys " + strings.Join(keys, ", ") + ", which no reader knows (no cluster, job or Spark conf)"
}

// decodeHint adds what a file is to a reader's parse error when the
// reader was forced on something else (a heredoc, a manifest).
func decodeHint(data []byte) string {
	if h := heredocNote(string(data)); h != "" {
		return "; it is " + h
	}
	return ""
}
