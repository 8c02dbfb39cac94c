package mirror

import "io"

// maxEnvValue bounds one string of the environment event: longer ones
// (Databricks' classpath entries are a few hundred KB at most) are left
// out with a warning naming the key, so that one huge value costs no more
// memory than this. json.Decoder would hold the value whole, twice.
const maxEnvValue = 1 << 20

// capStrings passes JSON text through, cutting every string literal after
// maxEnvValue bytes of it (never inside an escape or a UTF-8 sequence) and
// counting the strings cut, so the decoder reading it sees valid JSON.
type capStrings struct {
	r        io.Reader
	inString bool
	esc      int // bytes of an escape still to come
	n        int // bytes of the current string so far
	cutting  bool
	cut      int // strings cut so far
	buf      []byte
}

func (c *capStrings) Read(p []byte) (int, error) {
	for {
		if cap(c.buf) < len(p) {
			c.buf = make([]byte, len(p))
		}
		n, err := c.r.Read(c.buf[:len(p)])
		out := 0
		for _, b := range c.buf[:n] {
			if c.keep(b) {
				p[out] = b
				out++
			}
		}
		if out > 0 || err != nil {
			return out, err
		}
	}
}

// keep reads one byte and says whether it passes.
func (c *capStrings) keep(b byte) bool {
	if !c.inString {
		if b == '"' {
			c.inString, c.n, c.esc, c.cutting = true, 0, 0, false
		}
		return true
	}
	switch {
	case c.esc > 0:
		if c.esc == 1 && b == 'u' {
			c.esc = 5
		}
		c.esc--
	case b == '\\':
		c.esc = 1
	case b == '"':
		c.inString = false
		return true
	}
	if c.cutting {
		return false
	}
	c.n++
	if c.n > maxEnvValue && c.esc == 0 && b != '\\' && b < 0x80 {
		c.cutting = true
		c.cut++
	}
	return true
}
