package sparkconf

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// Spark reads spark-defaults.conf with java.util.Properties.load (through
// a UTF-8 reader) and then trims each value of leading and trailing
// characters up to U+0020 (Utils.trimExceptCRLF in spark-submit,
// String.trim in the launcher). So a key or value is written with the
// escapes Properties.load undoes, and a value that Spark would trim is
// refused when devenv.yaml is loaded (ValueProblem).

// Line is the spark-defaults.conf line that sets key to value, escaped as
// the file is written, so that what `devenv config spark` prints is what
// Spark reads.
func Line(key, value string) string { return EscapeKey(key) + " " + EscapeValue(value) }

// EscapeKey writes k so that Properties.load reads it back as the key.
func EscapeKey(k string) string { return escapeProp(k, true) }

// EscapeValue writes v so that Properties.load reads it back as the value.
func EscapeValue(v string) string { return escapeProp(v, false) }

// escapeProp escapes \, the separators = and :, the comment starts # and
// !, tab, newline, CR and form feed, every space of a key and the first
// space of a value, and anything outside printable ASCII as \uXXXX (UTF-16
// code units), so the file is plain ASCII whatever charset reads it.
func escapeProp(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '\\', '=', ':', '#', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		case ' ':
			if key || i == 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(' ')
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r >= 0x20 && r <= 0x7e {
				b.WriteRune(r)
				continue
			}
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, `\u%04X`, u)
			}
		}
	}
	return b.String()
}

// commentText makes s safe inside a # comment line: Properties.load ends a
// comment at CR or LF, so those are written as the two characters \n.
func commentText(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r\n", `\n`, "\r", `\n`, "\n", `\n`).Replace(s)
}

// ValueProblem says why Spark would not read v back as written from
// spark-defaults.conf, or "" when it would: Spark trims leading and
// trailing whitespace and control characters from every value.
func ValueProblem(v string) string {
	if v == "" {
		return ""
	}
	if v[0] <= ' ' || v[len(v)-1] <= ' ' {
		return "it starts or ends with whitespace or a control character, which Spark trims from spark-defaults.conf values"
	}
	return ""
}

// Property is one key = value pair of a properties file, in file order.
type Property struct{ Key, Value string }

// ParseProperties reads a properties file by java.util.Properties.load's
// rules (the file decoded as UTF-8, as Spark reads spark-defaults.conf):
// natural lines end at LF, CR or CR LF; leading space, tab and form feed
// are skipped; a line whose first other character is # or ! is a comment;
// an odd number of backslashes at the end of a line joins the next one
// (its leading whitespace skipped); the key ends at the first unescaped =,
// :, space, tab or form feed, and whitespace plus one = or : after it is
// the separator; \t \n \r \f \uXXXX are escapes and a backslash before any
// other character stands for that character. A key given twice keeps its
// last value. A malformed \uXXXX is an error, as in Java.
func ParseProperties(data []byte) ([]Property, error) {
	lr := lineReader{in: utf16.Encode([]rune(string(data)))}
	var out []Property
	for n := 1; ; n++ {
		line, ok := lr.logicalLine()
		if !ok {
			return out, nil
		}
		k, v := splitProperty(line)
		key, err := unescapeProp(k)
		if err != nil {
			return nil, fmt.Errorf("logical line %d: key: %w", n, err)
		}
		val, err := unescapeProp(v)
		if err != nil {
			return nil, fmt.Errorf("logical line %d: value of %s: %w", n, key, err)
		}
		out = append(out, Property{Key: key, Value: val})
	}
}

// PropertiesMap is ParseProperties as a map, a later key replacing an
// earlier one as Properties.put does.
func PropertiesMap(data []byte) (map[string]string, error) {
	props, err := ParseProperties(data)
	if err != nil {
		return nil, err
	}
	m := make(map[string]string, len(props))
	for _, p := range props {
		m[p.Key] = p.Value
	}
	return m, nil
}

// lineReader splits UTF-16 text into logical lines as Properties'
// LineReader does, comments and blank lines dropped, continuation
// backslashes removed, escapes left in place.
type lineReader struct {
	in     []uint16
	off    int
	skipLF bool
}

func isPropSpace(c uint16) bool { return c == ' ' || c == '\t' || c == '\f' }
func isEOL(c uint16) bool       { return c == '\n' || c == '\r' }

// lineState is a logical line being read.
type lineState struct {
	line                []uint16
	skipWhite, appended bool
	backslash           bool // the line so far ends in an odd run of backslashes
}

// logicalLine returns the next logical line, or false at the end.
func (lr *lineReader) logicalLine() ([]uint16, bool) {
	st := lineState{skipWhite: true}
	for lr.off < len(lr.in) {
		c := lr.in[lr.off]
		lr.off++
		if lr.skipLF {
			lr.skipLF = false
			if c == '\n' {
				continue
			}
		}
		if lr.step(&st, c) {
			return st.line, true
		}
	}
	if len(st.line) == 0 {
		return nil, false
	}
	return trimContinuation(st.line, st.backslash), true
}

// step reads one character into st; it reports whether a logical line
// is complete.
func (lr *lineReader) step(st *lineState, c uint16) bool {
	if st.skipWhite {
		if isPropSpace(c) || (!st.appended && isEOL(c)) {
			return false
		}
		st.skipWhite, st.appended = false, false
	}
	if len(st.line) == 0 && (c == '#' || c == '!') {
		lr.skipComment()
		st.skipWhite = true
		return false
	}
	if !isEOL(c) {
		st.line = append(st.line, c)
		st.backslash = c == '\\' && !st.backslash
		return false
	}
	if len(st.line) == 0 {
		st.skipWhite = true
		return false
	}
	if !st.backslash {
		return true
	}
	st.line = st.line[:len(st.line)-1] // the joining backslash
	if lr.off >= len(lr.in) {
		return true // as Java: joined at the very end of input, the line counts, even empty
	}
	st.skipWhite, st.appended, st.backslash = true, true, false
	lr.skipLF = c == '\r'
	return false
}

// skipComment consumes the rest of a comment line, leaving its line end
// to be read (and skipped) as leading whitespace of the next line.
func (lr *lineReader) skipComment() {
	for lr.off < len(lr.in) && !isEOL(lr.in[lr.off]) {
		lr.off++
	}
}

func trimContinuation(line []uint16, backslash bool) []uint16 {
	if backslash {
		return line[:len(line)-1]
	}
	return line
}

// splitProperty splits a logical line into its escaped key and value.
func splitProperty(line []uint16) (key, value []uint16) {
	keyLen, valStart, hasSep, backslash := 0, len(line), false, false
	for keyLen < len(line) {
		c := line[keyLen]
		if !backslash && (c == '=' || c == ':') {
			valStart, hasSep = keyLen+1, true
			break
		}
		if !backslash && isPropSpace(c) {
			valStart = keyLen + 1
			break
		}
		backslash = c == '\\' && !backslash
		keyLen++
	}
	for valStart < len(line) {
		c := line[valStart]
		if !isPropSpace(c) {
			if hasSep || (c != '=' && c != ':') {
				break
			}
			hasSep = true
		}
		valStart++
	}
	return line[:keyLen], line[valStart:]
}

// unescapeProp undoes Properties' escapes.
func unescapeProp(s []uint16) (string, error) {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			out = append(out, c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'n':
			out = append(out, '\n')
		case 'f':
			out = append(out, '\f')
		case 'u':
			u, err := hex4(s[i+1:])
			if err != nil {
				return "", err
			}
			out = append(out, u)
			i += 4
		default:
			out = append(out, c)
		}
	}
	return string(utf16.Decode(out)), nil
}

func hex4(s []uint16) (uint16, error) {
	if len(s) < 4 {
		return 0, fmt.Errorf(`malformed \uxxxx encoding`)
	}
	var v uint16
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | (c - '0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | (c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | (c - 'A' + 10)
		default:
			return 0, fmt.Errorf(`malformed \uxxxx encoding`)
		}
	}
	return v, nil
}
