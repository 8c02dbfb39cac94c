package mirror

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// maxProps bounds the entries read per section of the environment event
// (Databricks writes about 1,000 Spark properties and 2,000 classpath
// entries). A section with more stops the read there, with a warning, so a
// hostile log cannot make the reader hold, or spend seconds on, millions.
const maxProps = 20000

// decodeEnv reads a SparkListenerEnvironmentUpdate line token by token,
// keeping at most maxProps string entries per section; capped is true when
// a section had more and the rest of the event was left unread.
func decodeEnv(line []byte) (e envEvent, capped bool, err error) {
	return decodeEnvFrom(bytes.NewReader(line))
}

// decodeEnvFrom is decodeEnv on a stream: a line of any length costs only
// the entries kept.
func decodeEnvFrom(r io.Reader) (e envEvent, capped bool, err error) {
	cs := &capStrings{r: r}
	dec := json.NewDecoder(cs)
	if err := expectDelim(dec, '{'); err != nil {
		return e, false, err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return e, capped, err
		}
		var dst *map[string]any
		switch tok {
		case "JVM Information":
			dst = &e.JVM
		case "Spark Properties":
			dst = &e.Spark
		case "System Properties":
			dst = &e.System
		case "Classpath Entries":
			dst = &e.Classpath
		}
		if dst == nil {
			if err := skipValue(dec); err != nil {
				return e, capped, err
			}
			continue
		}
		capped, err = readSection(dec, cs, dst, &e.Long)
		if err != nil || capped {
			return e, capped, err
		}
	}
	return e, capped, nil
}

// readSection reads one {"key":"value",...} object into *dst, or the
// same as [["key","value"],...] pairs, the shape of Spark's REST API
// (/applications/<id>/environment) that hand-made logs copy.
// A value cut by cs (longer than maxEnvValue) is left out and its key
// added to long.
func readSection(dec *json.Decoder, cs *capStrings, dst *map[string]any, long *[]string) (capped bool, err error) {
	tok, err := dec.Token()
	if err != nil || tok == nil {
		return false, err
	}
	d, ok := tok.(json.Delim)
	if !ok || (d != '{' && d != '[') {
		return false, fmt.Errorf("section is not an object")
	}
	m := map[string]any{}
	*dst = m
	for dec.More() {
		if d == '[' {
			if err := expectDelim(dec, '['); err != nil {
				return capped, err
			}
		}
		k, v, keep, err := readProp(dec, cs, long)
		if err != nil {
			return capped, err
		}
		if d == '[' {
			if err := skipTo(dec, ']'); err != nil {
				return capped, err
			}
		}
		if !keep {
			continue
		}
		if len(m) >= maxProps {
			return true, nil
		}
		m[k] = v
	}
	_, err = dec.Token() // '}' or ']'
	return false, err
}

// readProp reads one key and its value; keep is false for a value that is
// not a scalar or was cut (its key is then added to long).
func readProp(dec *json.Decoder, cs *capStrings, long *[]string) (k string, v any, keep bool, err error) {
	kt, err := dec.Token()
	if err != nil {
		return "", nil, false, err
	}
	k, _ = kt.(string)
	before := cs.cut
	vt, err := dec.Token()
	if err != nil {
		return k, nil, false, err
	}
	if cs.cut != before {
		*long = append(*long, k)
		return k, nil, false, nil
	}
	if d, ok := vt.(json.Delim); ok {
		return k, nil, false, skipNested(dec, d)
	}
	return k, vt, true, nil
}

// skipTo skips the values left in the array or object being read, and
// its closing delimiter end.
func skipTo(dec *json.Decoder, end json.Delim) error {
	for dec.More() {
		if err := skipValue(dec); err != nil {
			return err
		}
	}
	return expectDelim(dec, end)
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q", want)
	}
	return nil
}

// skipValue skips the next value, however nested.
func skipValue(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); ok {
		return skipNested(dec, d)
	}
	return nil
}

// skipNested skips to the end of the object or array opened by d.
func skipNested(dec *json.Decoder, d json.Delim) error {
	if d != '{' && d != '[' {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}
