package mirror

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// decodeJSON decodes JSON leniently: trailing commas before } or ] are
// accepted (hand-edited cluster specs have them), and so are raw line
// breaks and tabs inside strings (a long value broken over lines by hand),
// read as spaces: no Spark conf value holds a line break. The cleaning keeps
// every byte's offset, so errors name the line and column of data.
func decodeJSON(data []byte) (any, error) {
	clean := doubleQuoteSingle(stripTrailingCommas(blankComments(data)))
	var v any
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(data, err)
	}
	return v, nil
}

// jsonError adds line:col to a JSON syntax error.
func jsonError(data []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	case errors.Is(err, io.ErrUnexpectedEOF):
		// the file ends inside a value: cut short, where it ends
		line, col := lineCol(data, len(bytes.TrimRight(data, " \t\r\n")))
		return fmt.Errorf("%d:%d: the file ends inside a value (cut short?)", line, col)
	}
	if off < 0 {
		return err
	}
	line, col := lineCol(data, int(off))
	return fmt.Errorf("%d:%d: %w", line, col, err)
}

func lineCol(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// afterCommentLines is text from its first line that is no // comment
// (JSON with comments opens with them), trimmed.
func afterCommentLines(text string) string {
	for strings.HasPrefix(text, "//") {
		_, rest, _ := strings.Cut(text, "\n")
		text = strings.TrimSpace(rest)
	}
	return text
}

// blankComments blanks // comments to the end of their line outside
// strings (JSON with comments, as editors keep it): each byte becomes a
// space, so every byte keeps its offset.
func blankComments(data []byte) []byte {
	if !bytes.Contains(data, []byte("//")) {
		return data
	}
	out := bytes.Clone(data)
	inStr, esc := false, false
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case inStr:
			esc, inStr = !esc && c == '\\', inStr && (esc || c != '"')
		case c == '"':
			inStr = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		}
	}
	return out
}

// stripTrailingCommas blanks commas that are followed (after whitespace) by
// } or ], outside strings, and raw line breaks and tabs inside strings: each
// becomes a space, so every byte keeps its offset.
func stripTrailingCommas(data []byte) []byte {
	out := make([]byte, 0, len(data))
	inStr, esc := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			if c == '\n' || c == '\r' || c == '\t' {
				c = ' '
			}
			out = append(out, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
		}
		if c == ',' {
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
				j++
			}
			if j < len(data) && (data[j] == '}' || data[j] == ']') {
				out = append(out, ' ') // keep offsets
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// asMap returns v as a string-keyed map, or nil.
func asMap(v any) map[string]any {
	switch m := v.(type) {
	case map[string]any:
		return m
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[fmt.Sprint(k)] = x
		}
		return out
	}
	return nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// ciGet gets a key case-insensitively.
func ciGet(m map[string]any, key string) any {
	if v, ok := m[key]; ok {
		return v
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v
		}
	}
	return nil
}

// dig follows a path of keys through nested maps.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m := asMap(v)
		if m == nil {
			return nil
		}
		v = m[k]
	}
	return v
}

// str renders a scalar as a string ("" for nil, maps and lists).
func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case map[string]any, map[any]any, []any:
		return ""
	}
	return fmt.Sprint(v)
}

// num reads a scalar as an int (0 when it is not a number).
func num(v any) int {
	f, err := strconv.ParseFloat(strings.TrimSpace(str(v)), 64)
	if err != nil || f < 0 || f > 1e9 {
		return 0
	}
	return int(f)
}

// lastSegment returns what follows the last '/' of a URI.
func lastSegment(uri string) string {
	if i := strings.LastIndexByte(uri, '/'); i >= 0 {
		return uri[i+1:]
	}
	return uri
}

// stringMap converts a map of scalars to strings, skipping nested values.
func stringMap(v any) map[string]string {
	m := asMap(v)
	out := make(map[string]string, len(m))
	for k, x := range m {
		if s := str(x); s != "" || x != nil {
			if _, nested := x.(map[string]any); nested {
				continue
			}
			out[k] = s
		}
	}
	return out
}

// doubleQuoteSingle turns a single-quoted string outside strings, on one
// line, with no " or \ in it ('{{FIXME}}' in a job template, as
// JavaScript and Python write strings) into a double-quoted one: the
// same bytes with " for ', so every byte keeps its offset. Any other
// single quote is left for the JSON error to name.
func doubleQuoteSingle(data []byte) []byte {
	if !bytes.ContainsRune(data, '\'') {
		return data
	}
	out := bytes.Clone(data)
	inStr, esc := false, false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '\'':
			end := bytes.IndexAny(out[i+1:], "'\"\\\n")
			if end < 0 || out[i+1+end] != '\'' {
				continue
			}
			out[i], out[i+1+end] = '"', '"'
			i += 1 + end
		}
	}
	return out
}
