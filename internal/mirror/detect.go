package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/devenv-dev/devenv/internal/safefile"
	"io"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// sniffFile names the format of the file at path from its content.
func sniffFile(path string) (string, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return "", fmt.Errorf("mirror: cannot read %s: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("mirror: cannot read %s: %w", path, err)
	}
	head = head[:n]
	if n == 0 {
		return "", unsupported(path, "the file is empty")
	}
	if codecOf(head) != "" || looksLikeEventLog(head) {
		return FormatEventLog, nil
	}
	if isBinary(head) {
		return "", unsupported(path, "the file holds binary data that is no known compression format")
	}
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if st.Size() > maxDescriptionSize {
		return "", unsupported(path, "the file is too large for a cluster description and does not start like an event log")
	}
	data, err := safefile.ReadFile(path, maxDescriptionSize)
	if err != nil {
		return "", fmt.Errorf("mirror: cannot read %s: %w", path, err)
	}
	if f := detectBytes(data); f != "" {
		return f, nil
	}
	if filled, note := fillTemplate(data); note != "" {
		return detectBytes(filled), nil
	}
	if why := yamlProblem(data); why != "" {
		return "", unsupported(path, why)
	}
	return "", unsupported(path, describeUnknown(data))
}

// looksLikeEventLog reports whether one of the first lines is a JSON
// event (a log may start with a few broken lines).
func looksLikeEventLog(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for i := 0; i < 20 && len(head) > 0; i++ {
		line := head
		if j := bytes.IndexByte(head, '\n'); j >= 0 {
			line, head = head[:j], head[j+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if bytes.HasPrefix(line, []byte("{")) && eventName(line) != nil {
			return true
		}
	}
	return false
}

// isBinary reports whether data is not text: NUL bytes or invalid UTF-8.
func isBinary(data []byte) bool {
	if bytes.IndexByte(data, 0) >= 0 {
		return true
	}
	// A cut at the end of the sample may split a rune: allow 3 bytes.
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size == 1 && len(data) > 3 {
			return true
		}
		data = data[size:]
	}
	return false
}

// detectBytes names the format of a whole description, or "".
func detectBytes(data []byte) string {
	text := strings.TrimSpace(strings.TrimPrefix(string(data), "\xef\xbb\xbf"))
	text = afterCommentLines(text)
	if strings.HasPrefix(text, "{") || strings.HasPrefix(text, "[") {
		if v, err := decodeJSON(data); err == nil {
			if f := detectTree(v); f != "" {
				return f
			}
		}
	}
	if isCloudFormationEMR(data) {
		return FormatEMR
	}
	if f := detectYAML(data); f != "" {
		return f
	}
	if looksLikeSubmit(text) {
		return FormatSparkSubmit
	}
	if looksLikeProperties(text) {
		return FormatSparkDefaults
	}
	return ""
}

func detectYAML(data []byte) string {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for i := 0; i < 16; i++ {
		var node yaml.Node
		if err := dec.Decode(&node); err != nil {
			return ""
		}
		dropDuplicateKeys(&node)
		var v any
		if err := node.Decode(&v); err != nil {
			return ""
		}
		if f := detectTree(v); f != "" {
			return f
		}
	}
	return ""
}

// detectTree names the format of a decoded JSON or YAML document.
func detectTree(v any) string {
	if emrSteps(v) != nil {
		return FormatEMR
	}
	if arr, ok := v.([]any); ok {
		if len(arr) > 0 && ciGet(asMap(arr[0]), "classification") != nil {
			return FormatEMRConfigurations
		}
		return ""
	}
	m := asMap(v)
	if m == nil {
		return ""
	}
	switch {
	case m["Cluster"] != nil || startJobRunBody(m) != nil:
		return FormatEMR
	case ciGet(m, "configurations") != nil && len(m) <= 2:
		return FormatEMRConfigurations
	case sparkOperatorKind(m) != "":
		return FormatSparkOperator
	case isDataprocWorkflow(m) || isDataprocBatch(m) || createClusterRequest(m) != nil || dataprocJobKind(m) != "" || m["virtualClusterConfig"] != nil || (m["clusterName"] != nil && asMap(m["config"])["softwareConfig"] != nil) ||
		asMap(m["config"])["gceClusterConfig"] != nil:
		return FormatDataproc
	case isBundle(m):
		return FormatDatabricks
	case isDBX(m):
		return FormatDatabricks
	case m["spark_version"] != nil || m["node_type_id"] != nil || m["new_cluster"] != nil ||
		m["job_clusters"] != nil || m["tasks"] != nil || asMap(m["settings"]) != nil:
		return FormatDatabricks
	case m["workerInfo"] != nil || (m["system"] != nil && m["gpu"] != nil) || m["softwareProperties"] != nil ||
		asMap(m["config"])["workerConfig"] != nil || isToolsSparkProperties(asMap(m["sparkProperties"])):
		return FormatToolsCluster
	}
	return ""
}

// isToolsSparkProperties reports whether v is a target cluster's
// sparkProperties (enforced, preserve, exclude, tuningDefinitions), which
// a target cluster file may hold alone.
func isToolsSparkProperties(v map[string]any) bool {
	for _, k := range []string{"enforced", "preserve", "exclude", "tuningDefinitions"} {
		if v[k] != nil {
			return true
		}
	}
	return false
}

// looksLikeSubmit reports whether text is a spark-submit command line: a
// script with a spark-submit command in it, or bare options.
func looksLikeSubmit(text string) bool {
	if _, err := readScript(text); !errors.Is(err, errNoSubmit) {
		return true // a script that runs spark-submit (a quoting error is then said by the importer)
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// "---" starts a YAML document; an option is "--name"
		return strings.Contains(line, "spark-submit") || (strings.HasPrefix(line, "--") && !strings.HasPrefix(line, "---"))
	}
	return false
}

// looksLikeProperties reports whether most non-comment lines start with a
// spark. key.
func looksLikeProperties(text string) bool {
	spark, other := 0, 0
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		if strings.HasPrefix(line, "spark.") {
			spark++
		} else {
			other++
		}
	}
	return spark > 0 && spark >= other
}

// yamlProblem explains a file that looks like a YAML description (it has
// apiVersion:, kind: or a cluster's keys) but does not parse, often a
// template whose {PLACEHOLDERS} were not filled in.
func yamlProblem(data []byte) string {
	text := string(data)
	if !strings.Contains(text, "kind:") && !strings.Contains(text, "apiVersion:") && !strings.Contains(text, "clusterName:") {
		return ""
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var node yaml.Node
		err := dec.Decode(&node)
		if errors.Is(err, io.EOF) {
			return ""
		}
		if err == nil { // a repeated key is no error here (the readers drop the earlier)
			dropDuplicateKeys(&node)
			var v any
			err = node.Decode(&v)
		}
		if err != nil {
			return fmt.Sprintf("it looks like YAML but does not parse (%v): is it a template whose placeholders were not filled in? fill them, then mirror it again", err)
		}
	}
}
