package redact

import (
	"errors"
	"strings"
)

// URLs masks the password of every URL in s that carries credentials
// ("https://user:pass@host/x" -> "https://user:<redacted>@host/x"; a
// password holding '@' or '/' is masked whole), wherever it stands in the
// text: error messages wrap URLs in quotes ("parse \"https://...\""), and
// net/url's own errors print the URL as given. Text without "://" is
// returned as it is.
func URLs(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+3])
		s = s[i+3:]
		end := strings.IndexAny(s, " \t\r\n\"'`<>")
		if end < 0 {
			end = len(s)
		}
		tok := s[:end]
		b.WriteString(maskUserinfo(tok))
		s = s[end:]
	}
}

// maskUserinfo masks the password in the authority of tok (what follows
// "://"): everything after the user's ':' up to the last '@' that belongs
// to the authority.
func maskUserinfo(tok string) string {
	at := strings.LastIndexByte(tok, '@')
	if at < 0 {
		return tok
	}
	userinfo := tok[:at]
	colon := strings.IndexByte(userinfo, ':')
	slash := strings.IndexAny(userinfo, "/?#")
	switch {
	case colon < 0 && slash < 0:
		return tok // a user name alone (git@host, user@host)
	case colon < 0:
		return tok // an '@' in the path: no credentials
	case slash >= 0 && slash < colon:
		return tok // host/path with '@' and ':' later
	}
	return userinfo[:colon+1] + Mask + tok[at:]
}

// Error returns err with URL credentials masked in its message (see URLs);
// errors.Is and errors.As still see the original chain. nil stays nil.
func Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if masked := URLs(msg); masked != msg {
		return &maskedError{msg: masked, err: err}
	}
	return err
}

type maskedError struct {
	msg string
	err error
}

func (e *maskedError) Error() string { return e.msg }

// Unwrap keeps errors.Is/As working; printing a cause is the printer's to
// mask (the CLI masks every line it prints).
func (e *maskedError) Unwrap() error { return e.err }

// Is lets errors.Is match the masked error itself.
func (e *maskedError) Is(target error) bool { return errors.Is(e.err, target) }
