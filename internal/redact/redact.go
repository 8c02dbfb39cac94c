// Package redact is devenv's one rule for secrets in configuration values:
// by key name (password, token, secret, ...), and by value wherever the key
// says nothing (credentials in URLs, key=value pairs inside option strings,
// Bearer tokens, well-known token shapes, high-entropy values under
// key-like names). mirror, sparkconf, explain and the exports all use it.
package redact

import (
	"math"
	"regexp"
	"strings"
	"sync"
)

// Mask replaces a secret inside a string.
const Mask = "<redacted>"

// secretWords in a key (lower-cased) name a secret.
var secretWords = []string{"password", "passwd", "secret", "token", "credential", "apikey", "api.key", "api_key", "api-key",
	"access.key", "accesskey", "access_key", "private.key", "privatekey", "private_key", "accountkey", "account.key",
	"sastoken", "sas.token", "sas_token", "connectionstring", "connection.string", "client.secret", "passphrase"}

// secretSegments are whole segments of a key (split on . _ - :) that name
// a secret: spark.redis.auth, DB_PWD, GIT_PAT.
var secretSegments = map[string]bool{"auth": true, "pwd": true, "pat": true, "sas": true, "pass": true, "sig": true, "jwt": true}

// secretMarkers in a value always mean a secret (a reference to one, or a
// value some other tool already redacted).
var secretMarkers = []string{"{{secrets/", "(redacted)", "-----begin", "private key-----"}

var classNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z_$][\w$]*(\.[a-zA-Z_$][\w$]*)+$`) })

// KeyIsSecret reports whether a key's name says its value is a secret.
func KeyIsSecret(key string) bool {
	k := strings.ToLower(key)
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	for _, seg := range strings.FieldsFunc(k, func(r rune) bool { return r == '.' || r == '_' || r == '-' || r == ':' || r == '/' }) {
		if secretSegments[seg] {
			return true
		}
	}
	return false
}

// harmless values are not secrets even under a secret key: booleans,
// numbers, class names (spark.hadoop.fs.s3a.aws.credentials.provider),
// empty values.
func harmless(value string) bool {
	v := strings.ToLower(strings.TrimSpace(value))
	switch v {
	case "", "true", "false", "none", "null":
		return true
	}
	if strings.Trim(v, "0123456789.") == "" {
		return true
	}
	return classNameRe().MatchString(strings.TrimSpace(value)) || isClassList(value)
}

func isClassList(value string) bool {
	parts := strings.Split(value, ",")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if !classNameRe().MatchString(strings.TrimSpace(p)) {
			return false
		}
	}
	return true
}

// Value returns value with its secrets masked and whether it held any: the
// whole value when the key names a secret, else each secret found inside.
func Value(key, value string) (string, bool) {
	if KeyIsSecret(key) && !harmless(value) || keyLike(key) && highEntropy(value) {
		return Mask, true
	}
	lv := strings.ToLower(value)
	for _, m := range secretMarkers {
		if strings.Contains(lv, m) {
			return Mask, true
		}
	}
	out := String(value)
	return out, out != value
}

// IsSecret reports whether key=value holds a secret anywhere.
func IsSecret(key, value string) bool {
	_, found := Value(key, value)
	return found
}

// String masks the secrets found inside free text (an option string, a
// URL, a log line) by their shape, keeping the rest readable.
func String(s string) string {
	if s == "" {
		return s
	}
	for _, r := range rules() {
		if r.hint != "" && !strings.Contains(strings.ToLower(s), r.hint) {
			continue
		}
		s = r.re.ReplaceAllString(s, r.repl)
	}
	return s
}

// keyLike names a key or credential without saying "secret": *_KEY, *.key.
func keyLike(key string) bool {
	k := strings.ToLower(key)
	return strings.HasSuffix(k, "key") || strings.HasSuffix(k, "keys") || strings.Contains(k, ".key.") || strings.HasSuffix(k, "_id_secret")
}

// highEntropy: at least 20 characters without spaces, path or class shape,
// and over 3.5 bits of entropy per character: a generated key.
func highEntropy(v string) bool {
	v = strings.TrimSpace(v)
	if len(v) < 20 || strings.ContainsAny(v, " /\\") || classNameRe().MatchString(v) {
		return false
	}
	var counts [256]int
	for i := 0; i < len(v); i++ {
		counts[v[i]]++
	}
	var h float64
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(len(v))
			h -= p * math.Log2(p)
		}
	}
	return h > 3.5
}

// File masks every line of a key=value or free-text file.
func File(data []byte) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	for i, l := range lines {
		lines[i] = Line(l)
	}
	return []byte(strings.Join(lines, ""))
}

// Line masks one "key value", "key=value" or "key: value" line: the value
// by its key and its shape.
func Line(line string) string {
	trimmed := strings.TrimLeft(line, " \t")
	i := strings.IndexAny(trimmed, " \t=:")
	if i <= 0 || strings.HasPrefix(trimmed, "#") {
		return String(line)
	}
	key := trimmed[:i]
	rest := trimmed[i:]
	sep := len(rest) - len(strings.TrimLeft(rest, " \t=:"))
	val := strings.TrimRight(rest[sep:], "\r\n")
	eol := rest[sep+len(val):]
	if masked, ok := Value(strings.Trim(key, `"'`), strings.Trim(val, `"',`)); ok {
		if masked == Mask {
			masked = Mask
		}
		return line[:len(line)-len(trimmed)] + key + rest[:sep] + masked + eol
	}
	return line
}
