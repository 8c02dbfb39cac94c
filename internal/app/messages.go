package app

import (
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/redact"
)

// Suggest is the candidate nearest word when word looks like a typo of
// it, else "": the "did you mean" of devenv's messages, commands and
// services alike, so every hint is chosen the same way.
func Suggest(word string, candidates []string) string { return spec.Suggest(word, candidates) }

// RedactURLs masks the passwords of the URLs in s (a mirror's or a
// registry's user:password@): what devenv prints of an error, which may
// quote such a URL, never shows a credential.
func RedactURLs(s string) string { return redact.URLs(s) }
