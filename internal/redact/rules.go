package redact

import (
	"regexp"
	"sync"
)

// rule masks one secret shape inside a string. hint, when set, is a
// lower-case fragment the string must hold for the rule to run (speed).
type rule struct {
	re   *regexp.Regexp
	repl string
	hint string
}

// rules are compiled on first use: package initialisation does no work.
var rules = sync.OnceValue(func() []rule {
	out := make([]rule, len(ruleSpecs))
	for i, r := range ruleSpecs {
		out[i] = rule{regexp.MustCompile(r.re), r.repl, r.hint}
	}
	return out
})

type ruleSpec struct{ re, repl, hint string }

// longName is a key name holding a secret word anywhere, inside
// key=value or key: value text, starting at a boundary (not inside a path
// such as /etc/passwd:/etc/passwd).
const longName = `(?i)(^|[\s?&;,"'(]|(?-i:-D))([\w.\-]*(?:password|passwd|secret|token|credential|api[._-]?key|access[._-]?key|private[._-]?key|` +
	`account[._-]?key|apikey|passphrase)[\w.\-]*)`

// shortName is a key whose last segment is a short secret word (auth, pwd,
// pat, sig, sas, pass), starting at a boundary so "path=" or "mypat=" are
// left alone: spark.redis.auth=, pwd=, ?auth=, -Ddb.pat=.
const shortName = `(?i)(^|[\s?&;,"'(]|(?-i:-D))((?:[\w\-]+[._\-])*(?:auth|pwd|pat|sig|sas|pass))`

const secretValue = `("[^"]*"|'[^']*'|[^\s;&,"']+)`

var ruleSpecs = []ruleSpec{
	// PEM private keys, whole block.
	{`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`, Mask, "private key"},
	// scheme://user:password@host -> scheme://user:<redacted>@host
	{`([a-zA-Z][a-zA-Z0-9+.\-]*://[^/\s:@]*):([^@\s/]+)@`, "${1}:" + Mask + "@", "@"},
	// Authorization headers.
	{`(?i)\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=\-]{8,}`, "${1} " + Mask, ""},
	// -Dname=value, name=value, name: value inside option strings, JDBC
	// URLs, query strings, connection strings.
	{longName + `(\s*[=:]\s*)` + secretValue, "${1}${2}${3}" + Mask, ""},
	{shortName + `(\s*=\s*)` + secretValue, "${1}${2}${3}" + Mask, ""},
	// well-known token shapes
	{`\b(AKIA|ASIA)[0-9A-Z]{16}\b`, Mask, ""},                                                  // AWS access key id
	{`\bdapi[0-9a-f]{32}(-\d+)?\b`, Mask, "dapi"},                                              // Databricks PAT
	{`\bnvapi-[A-Za-z0-9_\-]{20,}`, Mask, "nvapi-"},                                            // NGC personal key
	{`\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b`, Mask, "gh"},                                 // GitHub tokens
	{`\bgithub_pat_[A-Za-z0-9_]{30,}\b`, Mask, "github_pat_"},                                  // GitHub fine-grained
	{`\bglpat-[A-Za-z0-9_\-]{20,}\b`, Mask, "glpat-"},                                          // GitLab
	{`\bxox[abposr]-[A-Za-z0-9\-]{10,}`, Mask, "xox"},                                          // Slack
	{`\bAIza[0-9A-Za-z_\-]{35}\b`, Mask, "aiza"},                                               // Google API key
	{`\bya29\.[0-9A-Za-z_\-]{20,}`, Mask, "ya29."},                                             // Google OAuth access token
	{`\b(sk|rk)_(live|test)_[0-9A-Za-z]{16,}\b`, Mask, "_"},                                    // Stripe
	{`\bsk-(proj-)?[A-Za-z0-9_\-]{20,}\b`, Mask, "sk-"},                                        // OpenAI-style
	{`\bhf_[A-Za-z0-9]{30,}\b`, Mask, "hf_"},                                                   // Hugging Face
	{`\bnpm_[A-Za-z0-9]{36}\b`, Mask, "npm_"},                                                  // npm
	{`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]+`, Mask, "eyj"},           // JWT
	{`(?i)\b(AccountKey|SharedAccessKey|sig)=([A-Za-z0-9+/%]{16,}={0,2})`, "${1}=" + Mask, ""}, // Azure keys, SAS signatures
	{`https://hooks\.slack\.com/services/[A-Za-z0-9/]+`, Mask, "hooks.slack"},                  // Slack webhook
}
