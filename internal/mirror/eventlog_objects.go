package mirror

import "fmt"

// maxEventObjects bounds the JSON objects and arrays of one event that is
// decoded. Decoding makes a Go value of every one of them the target
// keeps (a plan node of children: [{},{},...] costs 40 bytes and its share
// of the slice for 3 bytes of JSON), so a 28 MB line of empty objects,
// 3 KB once zstd-compressed, took 980 MB of heap. Real events hold a few
// thousand (a large SQL plan with its metrics tens of thousands).
const maxEventObjects = 200_000

// tooManyObjects reports whether line holds more than maxEventObjects
// JSON objects and arrays (brackets outside strings), counting no further
// than that.
func tooManyObjects(line []byte) bool {
	n, inString, escaped := 0, false, false
	for _, c := range line {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == '{' || c == '['):
			if n++; n > maxEventObjects {
				return true
			}
		}
	}
	return false
}

// objectsWarning says how many events were skipped for their size.
func objectsWarning(n int) string {
	return fmt.Sprintf("%d events with more than %d JSON objects were skipped (decoding them would take memory without bound; real events hold far fewer)", n, maxEventObjects)
}
