package images

import redactpkg "github.com/devenv-dev/devenv/internal/redact"

// redactURLs masks URL credentials in a message.
func redactURLs(s string) string { return redactpkg.URLs(s) }
